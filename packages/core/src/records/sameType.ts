/**
 * True when A and B are mutually assignable: a schema's inferred type checked against its record
 * type.
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

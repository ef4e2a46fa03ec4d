/** Throws when an internal invariant does not hold (a bug, never an expected failure). */
export function assert(condition: unknown, message = 'assertion failed'): asserts condition {
  if (!condition) throw new Error(message)
}

/** Ends an exhaustive switch: the compiler proves it unreachable. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`)
}

import type { JsonValue } from '../../json.ts'

/**
 * Python's JSON values as the reference servers hold them: an `int` is exact at any size and a
 * `float` stays a float even when whole (`1.0`). A plain `number` reads as Python would print it:
 * an integral number is an `int`, any other a `float`. `PyFloat` marks a whole float, `PyInt` an
 * integer beyond 2^53. Both carry `toJSON`, so a path that only knows plain JSON (traces, digests)
 * still sees a number.
 */
export type PyJson =
  null | boolean | string | number | PyInt | PyFloat | PyJson[] | { [key: string]: PyJson }

/** A Python `float` (printed with `repr`: `1.0`, `1e+16`). */
export class PyFloat {
  readonly value: number
  constructor(value: number) {
    this.value = value
  }
  toJSON(): number {
    return this.value
  }
}

/** A Python `int` outside JavaScript's safe integer range, kept exact. */
export class PyInt {
  readonly value: bigint
  constructor(value: bigint) {
    this.value = value
  }
  /** Plain-JSON paths get the nearest number (exact output goes through `encodePyJson`). */
  toJSON(): number {
    return Number(this.value)
  }
  toString(): string {
    return this.value.toString()
  }
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/** An exact Python int: a plain number inside the safe range, a `PyInt` beyond it. */
export function exactInt(value: bigint): number | PyInt {
  return value >= -MAX_SAFE && value <= MAX_SAFE ? Number(value) : new PyInt(value)
}

/** A Python float, whole or not. */
export const pyFloat = (value: number): PyFloat => new PyFloat(value)

/** The exact value of a Python int (a plain integral number or a `PyInt`); undefined otherwise. */
export function intValue(value: unknown): bigint | undefined {
  if (value instanceof PyInt) return value.value
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value)
  return undefined
}

/**
 * The number of a Python float or int (`PyFloat`, `PyInt` or plain); undefined for anything else.
 */
export function numberValue(value: unknown): number | undefined {
  if (typeof value === 'number') return value
  if (value instanceof PyFloat) return value.value
  if (value instanceof PyInt) return Number(value.value)
  return undefined
}

/** True for a JSON object (a Python dict). */
export function isPyDict(value: unknown): value is { [key: string]: PyJson } {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof PyFloat) &&
    !(value instanceof PyInt)
  )
}

/**
 * The body as the environment servers read it: floats as plain numbers (their handlers compare
 * values, not Python types); ints beyond 2^53 stay exact `PyInt`s.
 */
export function withPlainFloats(value: PyJson): PyJson {
  if (value instanceof PyFloat) return value.value
  if (Array.isArray(value)) return value.map(withPlainFloats)
  if (isPyDict(value)) {
    const out: { [key: string]: PyJson } = {}
    for (const [key, item] of Object.entries(value)) {
      if (key === '__proto__')
        Object.defineProperty(out, key, {
          value: withPlainFloats(item),
          enumerable: true,
          writable: true,
          configurable: true,
        })
      else out[key] = withPlainFloats(item)
    }
    return out
  }
  return value
}

/**
 * A Python value where a plain JSON value travels (environment answers through the protocol and
 * simulator): `PyInt` and `PyFloat` stand in for numbers there through their `toJSON`, and only
 * `encodePyJson` tells them apart. The one place their types meet.
 */
export const asJsonValue = (value: PyJson): JsonValue => value as JsonValue

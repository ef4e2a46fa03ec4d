import type { CutoverError } from '../../contracts/errors.ts'
import { cutoverError } from '../../contracts/errors.ts'
import type { JsonValue } from '../../json.ts'
import type { Result } from '../../result.ts'
import { err, ok } from '../../result.ts'

/**
 * The Gymnasium base codec's export (docs/protocol.md §7.2): a deep copy that must survive a JSON
 * round trip unchanged. Live objects (class instances, functions, bigints, non-finite numbers,
 * undefined) fail with the path of the first offender instead of being written implicitly.
 */
export function jsonSafeCopy(value: unknown, path = '$'): Result<JsonValue, CutoverError> {
  const copied = copy(value)
  if (!(copied instanceof Unsafe)) return ok(copied)
  return err(
    cutoverError(
      'resources_checkpoint_error',
      `state is not JSON-safe at ${path}${copied.segments.reverse().join('')}: ${copied.why}`,
    ),
  )
}

/**
 * The first offender: why, and the path segments from it up to the copy's root (innermost first,
 * added as the recursion unwinds). Every session export runs this copy, so the path is built only
 * when it fails, never per value.
 */
class Unsafe {
  readonly segments: string[] = []
  constructor(readonly why: string) {}
}

function copy(value: unknown): JsonValue | Unsafe {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number')
    return Number.isFinite(value) ? value : new Unsafe(`non-finite number ${String(value)}`)
  if (Array.isArray(value)) {
    const out: JsonValue[] = []
    for (let i = 0; i < value.length; i++) {
      const r = copy(value[i])
      if (r instanceof Unsafe) {
        r.segments.push(`[${i}]`)
        return r
      }
      out.push(r)
    }
    return out
  }
  if (typeof value === 'object') {
    const proto: unknown = Object.getPrototypeOf(value)
    if (proto !== Object.prototype && proto !== null)
      return new Unsafe(`live object of class ${(value as object).constructor?.name ?? 'unknown'}`)
    const out: { [k: string]: JsonValue } = {}
    for (const k of Object.keys(value)) {
      const r = copy((value as { readonly [k: string]: unknown })[k])
      if (r instanceof Unsafe) {
        r.segments.push(`.${k}`)
        return r
      }
      out[k] = r
    }
    return out
  }
  return new Unsafe(`${typeof value} value`)
}

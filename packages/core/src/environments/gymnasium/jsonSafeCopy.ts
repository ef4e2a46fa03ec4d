import type { CutoverError } from '../../contracts/errors.ts'
import { cutoverError } from '../../contracts/errors.ts'
import type { JsonValue } from '../../json.ts'
import type { Result } from '../../result.ts'
import { err, ok } from '../../result.ts'

/**
 * The Gymnasium base codec's export (PROTOCOL.md §7.2): a deep copy that must survive a JSON round
 * trip unchanged. Live objects (class instances, functions, bigints, non-finite numbers, undefined)
 * fail with the path of the first offender instead of being written implicitly.
 */
export function jsonSafeCopy(value: unknown, path = '$'): Result<JsonValue, CutoverError> {
  const fail = (why: string) =>
    err(cutoverError('resources_checkpoint_error', `state is not JSON-safe at ${path}: ${why}`))
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return ok(value)
  if (typeof value === 'number')
    return Number.isFinite(value) ? ok(value) : fail(`non-finite number ${String(value)}`)
  if (Array.isArray(value)) {
    const out: JsonValue[] = []
    for (let i = 0; i < value.length; i++) {
      const r = jsonSafeCopy(value[i], `${path}[${i}]`)
      if (!r.ok) return r
      out.push(r.value)
    }
    return ok(out)
  }
  if (typeof value === 'object') {
    const proto: unknown = Object.getPrototypeOf(value)
    if (proto !== Object.prototype && proto !== null)
      return fail(`live object of class ${(value as object).constructor?.name ?? 'unknown'}`)
    const out: { [k: string]: JsonValue } = {}
    for (const [k, v] of Object.entries(value)) {
      const r = jsonSafeCopy(v, `${path}.${k}`)
      if (!r.ok) return r
      out[k] = r.value
    }
    return ok(out)
  }
  return fail(`${typeof value} value`)
}

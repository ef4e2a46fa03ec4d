import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { JsonValue } from '../../json.ts'
import { jsonSafeCopy } from './jsonSafeCopy.ts'

/** The direct form of the rule (a path string per value): what the fast copy must agree with. */
function reference(
  value: unknown,
  path = '$',
): { ok: true; value: JsonValue } | { ok: false; message: string } {
  const fail = (why: string) => ({
    ok: false as const,
    message: `state is not JSON-safe at ${path}: ${why}`,
  })
  if (value === null || typeof value === 'string' || typeof value === 'boolean')
    return { ok: true, value }
  if (typeof value === 'number')
    return Number.isFinite(value) ? { ok: true, value } : fail(`non-finite number ${String(value)}`)
  if (Array.isArray(value)) {
    const out: JsonValue[] = []
    for (let i = 0; i < value.length; i++) {
      const r = reference(value[i], `${path}[${i}]`)
      if (!r.ok) return r
      out.push(r.value)
    }
    return { ok: true, value: out }
  }
  if (typeof value === 'object') {
    const proto: unknown = Object.getPrototypeOf(value)
    if (proto !== Object.prototype && proto !== null)
      return fail(`live object of class ${(value as object).constructor?.name ?? 'unknown'}`)
    const out: { [k: string]: JsonValue } = {}
    for (const [k, v] of Object.entries(value)) {
      const r = reference(v, `${path}.${k}`)
      if (!r.ok) return r
      out[k] = r.value
    }
    return { ok: true, value: out }
  }
  return fail(`${typeof value} value`)
}

class Live {
  readonly x = 1
}

const offender = fc.constantFrom<unknown>(
  Number.NaN,
  Number.POSITIVE_INFINITY,
  undefined,
  () => 1,
  new Map(),
  10n,
  new Live(),
  new Date(0),
  Symbol('s'),
)
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.constant(null), fc.boolean(), fc.double(), fc.integer(), fc.string()),
    offender,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 4 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), {
      maxKeys: 3,
      noNullPrototype: false,
    }),
  ),
}))

describe('jsonSafeCopy', () => {
  let refused = 0
  it('[gym-base-codec] the copy (path built only on failure) agrees with the per-value-path form: same copy, same refusal and message', () => {
    fc.assert(
      fc.property(value, fc.constantFrom('$', '$.state'), (v, path) => {
        const fast = jsonSafeCopy(v, path)
        const slow = reference(v, path)
        refused += slow.ok ? 0 : 1
        expect(fast.ok).toBe(slow.ok)
        if (fast.ok && slow.ok) expect(fast.value).toStrictEqual(slow.value)
        if (!fast.ok && !slow.ok) {
          expect(fast.error.message).toBe(slow.message)
          expect(fast.error.code).toBe('resources_checkpoint_error')
        }
      }),
      { numRuns: 1000, seed: 7 },
    )
    // Both sides of the rule are exercised.
    expect(refused).toBeGreaterThan(100)
    expect(refused).toBeLessThan(900)
  })
})

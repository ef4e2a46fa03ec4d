import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalJson } from './json.ts'

/**
 * The direct form: every array and object copied with its keys sorted, then stringified and
 * escaped.
 */
function reference(value: unknown): string {
  const sortKeys = (v: unknown): unknown => {
    if (
      v !== null &&
      typeof v === 'object' &&
      typeof (v as { toJSON?: unknown }).toJSON === 'function'
    )
      return sortKeys((v as { toJSON: () => unknown }).toJSON())
    if (Array.isArray(v)) return v.map(sortKeys)
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {}
      for (const key of Object.keys(v).sort()) {
        const x = (v as Record<string, unknown>)[key]
        if (x !== undefined) out[key] = sortKeys(x)
      }
      return out
    }
    return v
  }
  return JSON.stringify(sortKeys(value)).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

/** A Python-float-like value: serialised as what `toJSON` returns. */
class PyFloat {
  constructor(readonly v: number) {}
  toJSON(): unknown {
    return { f: this.v, z: [this.v, 'é'] }
  }
}

const leaf = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.double(),
  fc.integer(),
  fc.string({ unit: 'binary' }),
  fc.constant(() => 1),
  fc.double().map((v) => new PyFloat(v)),
)
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    // Arrays of primitives only (the shortcut) and mixed ones, holes included.
    fc.array(
      fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.constant(undefined), fc.boolean()),
      { maxLength: 8 },
    ),
    fc.sparseArray(fc.integer(), { maxLength: 6 }),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(
      fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('10', '2', 'a', 'é', '__proto__')),
      tie('value'),
      { maxKeys: 5 },
    ),
  ),
}))

describe('canonicalJson', () => {
  it('[canonical-json] the shortcuts (leaves first, primitive arrays written as they stand) give the text of the copy-every-value form', () => {
    fc.assert(
      fc.property(value, (v) => {
        // A bare undefined or function has no JSON text: both forms throw then.
        const outcome = (f: (x: unknown) => string): string => {
          try {
            return f(v)
          } catch {
            return 'throws'
          }
        }
        expect(outcome(canonicalJson)).toBe(outcome(reference))
      }),
      { numRuns: 3000, seed: 11 },
    )
  })
})

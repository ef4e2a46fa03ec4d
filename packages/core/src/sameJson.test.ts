import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalJson } from './json.ts'
import { sameJson } from './sameJson.ts'

class Box {
  constructor(readonly v: number) {}
  toJSON(): unknown {
    return [this.v]
  }
}

const leaf = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.constantFrom(0, -0, 1, 1.5, Number.NaN, Number.POSITIVE_INFINITY),
  fc.constantFrom('', 'a', 'é', '\\u00e9', '1'),
  fc.constant(() => 1),
  fc.constantFrom(1, 2).map((v) => new Box(v)),
)
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', '10', '2', '__proto__'), tie('value'), { maxKeys: 3 }),
  ),
}))

/** A value and a near copy: keys reordered, maybe one leaf changed. */
function reorder(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reorder)
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    const out: Record<string, unknown> = {}
    for (const k of Object.keys(v).reverse())
      Object.defineProperty(out, k, {
        value: reorder((v as Record<string, unknown>)[k]),
        enumerable: true,
        writable: true,
        configurable: true,
      })
    return out
  }
  return v
}

const text = (v: unknown): string => canonicalJson({ v })

describe('sameJson', () => {
  it('[equivalence] agrees with comparing canonical JSON texts (key order ignored, dropped and toJSON values included)', () => {
    let equal = 0
    fc.assert(
      fc.property(value, value, fc.boolean(), (a, other, near) => {
        const b = near ? reorder(a) : other
        const expected = text(a) === text(b)
        equal += expected ? 1 : 0
        expect(sameJson(a, b)).toBe(expected)
      }),
      { numRuns: 4000, seed: 3 },
    )
    expect(equal).toBeGreaterThan(1000)
  })

  it('[equivalence] a key that is own but not enumerable is not a match', () => {
    const y = { a: 1, c: 3 }
    Object.defineProperty(y, 'b', { value: 2, enumerable: false })
    expect(sameJson({ a: 1, b: 2 }, y)).toBe(false)
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true)
    expect(sameJson([Number.NaN], [null])).toBe(true)
    expect(sameJson({ x: [1, { y: 'é' }] }, { x: [1, { y: 'é' }] })).toBe(true)
  })
})

import { describe, expect, it } from 'vitest'
import { pyFloatRepr } from './pyFloatRepr.ts'

describe("[pyjson-float] CPython's repr(float)", () => {
  it.each([
    [1, '1.0'],
    [-1, '-1.0'],
    [25, '25.0'],
    [-0, '-0.0'],
    [0.1, '0.1'],
    [1 / 3, '0.3333333333333333'],
    [12345.678, '12345.678'],
    [1e15, '1000000000000000.0'],
    [2 ** 53, '9007199254740992.0'],
    [1e16, '1e+16'],
    [1e22, '1e+22'],
    [1.2345678901234568e17, '1.2345678901234568e+17'],
    [1.5e300, '1.5e+300'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
    [0.0001, '0.0001'],
    [1e-5, '1e-05'],
    [0.00001234, '1.234e-05'],
    [5e-324, '5e-324'],
  ])('%s prints as %s', (x, repr) => {
    expect(pyFloatRepr(x)).toBe(repr)
  })

  it('refuses NaN and infinities (JSON output has its own policy for them)', () => {
    expect(() => pyFloatRepr(Number.NaN)).toThrow(RangeError)
    expect(() => pyFloatRepr(Number.POSITIVE_INFINITY)).toThrow(RangeError)
  })
})

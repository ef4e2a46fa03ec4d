import { describe, expect, it } from 'vitest'
import { encodePyJson, OUT_OF_RANGE_FLOAT } from './encodePyJson.ts'
import { PyFloat, PyInt, pyFloat, exactInt } from './pyValues.ts'

describe("[pyjson-encode] Starlette's JSONResponse bytes", () => {
  it('keeps a float a float and prints ints as ints', () => {
    expect(
      encodePyJson({ reward: pyFloat(1), value: 20, mean: 0.5, big: pyFloat(1e16), tiny: 1e-5 }),
    ).toEqual({
      ok: true,
      value: '{"reward":1.0,"value":20,"mean":0.5,"big":1e+16,"tiny":1e-05}',
    })
  })

  it('prints integers beyond 2^64 exactly', () => {
    const n = 2n ** 70n + 12345n
    expect(encodePyJson([exactInt(n), new PyInt(-n)])).toEqual({ ok: true, value: `[${n},-${n}]` })
    expect(exactInt(9007199254740991n)).toBe(9007199254740991)
    expect(exactInt(9007199254740993n)).toEqual(new PyInt(9007199254740993n))
  })

  it('writes compact separators, keeps non-ASCII text and escapes what JSON requires', () => {
    expect(encodePyJson({ a: [1, 2.5, 'xé\u2028\u007f\u001f\\"'], b: null })).toEqual({
      ok: true,
      value: '{"a":[1,2.5,"xé\u2028\u007f\\u001f\\\\\\""],"b":null}',
    })
  })

  it('[NaN policy] NaN or an infinity anywhere is the reference ValueError, never a non-standard literal', () => {
    expect(encodePyJson({ x: [Number.NaN] })).toEqual({ ok: false, error: OUT_OF_RANGE_FLOAT })
    expect(encodePyJson(new PyFloat(Number.NEGATIVE_INFINITY))).toEqual({
      ok: false,
      error: OUT_OF_RANGE_FLOAT,
    })
    expect(OUT_OF_RANGE_FLOAT).toBe(
      "ValueError('Out of range float values are not JSON compliant')",
    )
  })

  it('plain-JSON paths see numbers through toJSON', () => {
    expect(JSON.stringify({ a: pyFloat(4), b: exactInt(2n ** 60n) })).toBe(
      '{"a":4,"b":1152921504606847000}',
    )
  })
})

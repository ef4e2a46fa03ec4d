import { describe, expect, it } from 'vitest'
import { encodePyJson } from './encodePyJson.ts'
import { parsePyJson } from './parsePyJson.ts'
import { PyFloat, PyInt } from './pyValues.ts'

const bytes = (text: string) => new TextEncoder().encode(text)
const roundTrip = (text: string) => {
  const parsed = parsePyJson(bytes(text))
  if (!parsed.ok) throw new Error(`not JSON: ${text}`)
  return encodePyJson(parsed.value)
}

describe('[pyjson-parse] json.loads as CPython runs it', () => {
  it('keeps ints exact at any size and floats as floats', () => {
    const big = '100000000000000000000000000000000000009'
    expect(parsePyJson(bytes(`[${big}, -7, 1.0, 2.5, 1e3, 1E-5]`))).toEqual({
      ok: true,
      value: [new PyInt(BigInt(big)), -7, new PyFloat(1), 2.5, new PyFloat(1000), 1e-5],
    })
    expect(roundTrip(`{"count": ${big}, "reward": 1.0, "t": 1e16, "e": 0.00001}`)).toEqual({
      ok: true,
      value: `{"count":${big},"reward":1.0,"t":1e+16,"e":1e-05}`,
    })
  })

  it('a repeated key keeps its first position and its last value', () => {
    expect(roundTrip('{"a":1,"b":2,"a":3}')).toEqual({ ok: true, value: '{"a":3,"b":2}' })
  })

  it('reads NaN and Infinity as Python does', () => {
    const parsed = parsePyJson('[NaN, Infinity, -Infinity]')
    expect(parsed.ok && parsed.value).toEqual([
      new PyFloat(Number.NaN),
      new PyFloat(Number.POSITIVE_INFINITY),
      new PyFloat(Number.NEGATIVE_INFINITY),
    ])
  })

  // Positions and messages recorded from CPython's json.loads.
  it.each([
    ['{bad', 1, 'Expecting property name enclosed in double quotes'],
    ['{"a":}', 5, 'Expecting value'],
    ['[1,]', 3, 'Expecting value'],
    ['{"a":1,}', 7, 'Expecting property name enclosed in double quotes'],
    ['{"a" 1}', 5, "Expecting ':' delimiter"],
    ['[1 2]', 3, "Expecting ',' delimiter"],
    ['{"a":1 "b":2}', 7, "Expecting ',' delimiter"],
    ['"abc', 0, 'Unterminated string starting at'],
    ['"a\\x"', 2, 'Invalid \\escape'],
    ['"a\nb"', 2, 'Invalid control character at'],
    ['["\\u12"]', 3, 'Invalid \\uXXXX escape'],
    ['1 2', 2, 'Extra data'],
    ['01', 1, 'Extra data'],
    ['{"a":1}x', 7, 'Extra data'],
    ['  ', 2, 'Expecting value'],
    ['-', 0, 'Expecting value'],
    ['tru', 0, 'Expecting value'],
    ['[-]', 1, 'Expecting value'],
    ['{"é😀":1, x}', 9, 'Expecting property name enclosed in double quotes'],
  ])('%j fails at %i with %s', (text, pos, msg) => {
    expect(parsePyJson(bytes(text))).toEqual({ ok: false, error: { kind: 'syntax', pos, msg } })
  })

  it('decodes bytes as json.detect_encoding does', () => {
    expect(parsePyJson(new Uint8Array([0xef, 0xbb, 0xbf, 0x31]))).toEqual({ ok: true, value: 1 })
    expect(parsePyJson(new Uint8Array([0xff, 0xfe, 0x7b, 0x7d]))).toEqual({
      ok: false,
      error: { kind: 'syntax', pos: 0, msg: 'Expecting value' },
    })
    expect(parsePyJson(new Uint8Array([0x7b, 0xff, 0x7d]))).toEqual({
      ok: false,
      error: { kind: 'unreadable' },
    })
  })

  it("refuses an int past CPython's 4300-digit limit as unreadable (FastAPI's 400)", () => {
    expect(parsePyJson(`1${'0'.repeat(4300)}`)).toEqual({
      ok: false,
      error: { kind: 'unreadable' },
    })
  })
})

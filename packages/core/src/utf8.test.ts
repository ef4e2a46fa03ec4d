import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeUtf8, encodeUtf8 } from './utf8.ts'

describe('utf8', () => {
  it('[bytes] encodes exactly as the platform encoder and decodes back', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const bytes = encodeUtf8(text)
        expect(bytes).toEqual(new TextEncoder().encode(text))
        expect(decodeUtf8(bytes)).toBe(new TextDecoder().decode(bytes))
      }),
      { numRuns: 300, seed: 42 },
    )
  })

  it('[bytes] rejects invalid UTF-8 (a flipped byte in a JSON file)', () => {
    for (const bad of [
      [0x80],
      [0xc0, 0x80],
      [0xe2, 0x82],
      [0xed, 0xa0, 0x80],
      [0xf5, 0x80, 0x80, 0x80],
      [0x7b, 0x84],
    ]) {
      expect(decodeUtf8(Uint8Array.from(bad)), JSON.stringify(bad)).toBeUndefined()
    }
  })
})

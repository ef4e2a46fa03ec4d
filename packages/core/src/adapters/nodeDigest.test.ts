import { describe, expect, it } from 'vitest'
import { nodeDigest } from './nodeDigest.ts'

describe('nodeDigest', () => {
  it('[digest] SHA-256 in lower-case hex: the FIPS 180-2 vectors, and a string is hashed as its UTF-8 bytes', () => {
    expect(nodeDigest.sha256Hex('')).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    )
    expect(nodeDigest.sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
    expect(nodeDigest.sha256Hex(new TextEncoder().encode('abc'))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
    const text = '{"name":"Zoë","note":"✓ 日本"}'
    expect(nodeDigest.sha256Hex(text)).toBe(nodeDigest.sha256Hex(new TextEncoder().encode(text)))
  })
})

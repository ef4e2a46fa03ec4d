import { describe, expect, it } from 'vitest'
import { isSafeFileName, isSafeRelativePath } from './safePath.ts'

describe('safe paths', () => {
  it('[paths] accepts relative /-separated paths inside D', () => {
    for (const p of [
      'agent/manifest.json',
      'resources/counter/r0.a1.json',
      'model-ledger/policy/r0-a1.lineage.jsonl',
      '.hidden/x',
    ]) {
      expect(isSafeRelativePath(p), p).toBe(true)
    }
  })

  it('[paths] rejects absolute paths, .. and . segments, backslashes, drive letters and control characters', () => {
    for (const p of [
      '',
      '/etc/passwd',
      '../x',
      'a/../../x',
      'a/./b',
      'a//b',
      'a/',
      '..\\x',
      'a\\b',
      'C:/x',
      'a\u0000b',
      'a\nb',
      '..',
    ]) {
      expect(isSafeRelativePath(p), JSON.stringify(p)).toBe(false)
    }
    expect(isSafeFileName('a/b.json')).toBe(false)
    expect(isSafeFileName('r0.a0.json')).toBe(true)
  })
})

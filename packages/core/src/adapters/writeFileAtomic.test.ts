import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { writeFileAtomic } from './writeFileAtomic.ts'

const roots: string[] = []
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

describe('writeFileAtomic', () => {
  it('[durability] replaces a file whole (text or bytes) and leaves no temp file beside it', () => {
    const root = mkdtempSync(join(tmpdir(), 'cutover-atomic-'))
    roots.push(root)
    const file = join(root, 'run.json')
    writeFileAtomic(file, '{"a":1}\n')
    expect(readFileSync(file, 'utf8')).toBe('{"a":1}\n')
    const bytes = new Uint8Array(70_000).map((_, i) => i % 251)
    writeFileAtomic(file, bytes)
    expect(new Uint8Array(readFileSync(file))).toEqual(bytes)
    expect(readdirSync(root)).toEqual(['run.json'])
  })
})

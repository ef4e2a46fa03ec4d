import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { cliReferenceMarkdown } from '../apps/api/src/cli/cliReference.ts'

describe('docs/cli.md', () => {
  it('[docs] is the commands’ own --help, word for word (npm run docs:cli regenerates it)', async () => {
    const page = readFileSync(new URL('../docs/cli.md', import.meta.url), 'utf8')
    expect(page).toBe(await cliReferenceMarkdown())
  })
})

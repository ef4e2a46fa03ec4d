import { ESLint } from 'eslint'
import { fileURLToPath } from 'node:url'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const repo = fileURLToPath(new URL('..', import.meta.url))
const fixture = readFileSync(new URL('../packages/core/lint-fixtures/impure.ts', import.meta.url), 'utf8')

/** Lints the fixture's text as if it were a domain file of core, and as an adapter. */
async function lintAs(filePath: string) {
  const eslint = new ESLint({ cwd: repo })
  const [result] = await eslint.lintText(fixture, { filePath })
  return result?.messages.map((m) => m.ruleId) ?? []
}

describe('core purity fence', () => {
  it('[purity] rejects Date.now(), Math.random() and node: imports in core domain code', async () => {
    const rules = await lintAs(`${repo}packages/core/src/environments/impure.ts`)
    expect(rules.filter((r) => r === 'no-restricted-properties')).toHaveLength(2)
    expect(rules).toContain('no-restricted-imports')
  })

  it('[purity] allows the same code in core adapters', async () => {
    const rules = await lintAs(`${repo}packages/core/src/adapters/impure.ts`)
    expect(rules.filter((r) => r?.startsWith('no-restricted'))).toEqual([])
  })
})

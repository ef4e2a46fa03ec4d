import { ESLint } from 'eslint'
import { fileURLToPath } from 'node:url'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const repo = fileURLToPath(new URL('..', import.meta.url))
const fixture = readFileSync(
  new URL('../packages/core/lint-fixtures/impure.ts', import.meta.url),
  'utf8',
)

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

describe('core layer fence', () => {
  // A deliberate upward import: linted as a file of protocol/, it reaches up into the simulator.
  const upward =
    "import { Simulator } from '../simulator/Simulator.ts'\nexport const engine = Simulator\n"

  it('[layers] rejects an upward import between core folders (protocol/ importing simulator/)', async () => {
    const eslint = new ESLint({ cwd: repo })
    const [result] = await eslint.lintText(upward, {
      filePath: `${repo}packages/core/src/protocol/upward.ts`,
    })
    const messages = result?.messages ?? []
    expect(messages.map((m) => m.ruleId)).toContain('import-x/no-restricted-paths')
    expect(messages.find((m) => m.ruleId === 'import-x/no-restricted-paths')?.message).toContain(
      'core layers import downward only',
    )
  })

  it('[layers] allows the same import from the simulator, the top layer', async () => {
    const eslint = new ESLint({ cwd: repo })
    const [result] = await eslint.lintText(upward, {
      filePath: `${repo}packages/core/src/simulator/upward.ts`,
    })
    expect(result?.messages.map((m) => m.ruleId)).not.toContain('import-x/no-restricted-paths')
  })

  it('[layers] rejects the foundation (contracts/) importing a layer', async () => {
    const eslint = new ESLint({ cwd: repo })
    const [result] = await eslint.lintText(
      "import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'\nexport type Id = ExecutionIdentity\n",
      { filePath: `${repo}packages/core/src/contracts/upward.ts` },
    )
    expect(result?.messages.map((m) => m.ruleId)).toContain('import-x/no-restricted-paths')
  })

  it('[layers] rejects an import cycle between core files', async () => {
    const eslint = new ESLint({ cwd: repo, ignore: false })
    const results = await eslint.lintFiles([
      `${repo}packages/core/lint-fixtures/cycle/first.ts`,
      `${repo}packages/core/lint-fixtures/cycle/second.ts`,
    ])
    for (const r of results) expect(r.messages.map((m) => m.ruleId)).toContain('import-x/no-cycle')
  })
})

describe('apps/api layer fence', () => {
  // The import that ran upward before the layers: a participant process reaching into the CLI.
  const upward = "import type { CliIo } from '../cli/simulateCommand.ts'\nexport type Io = CliIo\n"

  it('[layers] rejects an upward import between apps/api folders (participants/ importing cli/)', async () => {
    const eslint = new ESLint({ cwd: repo })
    const [result] = await eslint.lintText(upward, {
      filePath: `${repo}apps/api/src/participants/upward.ts`,
    })
    const restricted = (result?.messages ?? []).find(
      (m) => m.ruleId === 'import-x/no-restricted-paths',
    )
    expect(restricted?.message).toContain('apps/api layers import downward only')
  })

  it('[layers] allows the same import from the CLI, the top layer', async () => {
    const eslint = new ESLint({ cwd: repo })
    const [result] = await eslint.lintText(upward, {
      filePath: `${repo}apps/api/src/cli/upward.ts`,
    })
    expect(result?.messages.map((m) => m.ruleId)).not.toContain('import-x/no-restricted-paths')
  })
})

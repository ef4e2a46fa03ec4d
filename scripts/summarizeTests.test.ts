import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { summarize, vitestTally } from './summarize-tests.mjs'

const repo = fileURLToPath(new URL('..', import.meta.url))
// Inside the repository (so `vitest` resolves), in a dot-folder no test glob or lint sees.
const scratch = mkdtempSync(join(repo, 'scripts', '.summarize-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** Runs vitest on one test file of `source` and returns its JSON report. */
function vitestReport(source: string): unknown {
  const file = join(scratch, 'suite.test.ts')
  const out = join(scratch, 'report.json')
  writeFileSync(file, source)
  // Its own config: without one, vitest would find the repository's and run the whole suite.
  writeFileSync(
    join(scratch, 'vitest.config.mjs'),
    "export default { test: { include: ['*.test.ts'] } }\n",
  )
  spawnSync(
    process.execPath,
    [
      join(repo, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--config',
      join(scratch, 'vitest.config.mjs'),
      '--root',
      scratch,
      '--reporter=json',
      `--outputFile.json=${out}`,
    ],
    { cwd: scratch, encoding: 'utf8', stdio: 'ignore' },
  )
  return JSON.parse(readFileSync(out, 'utf8'))
}

describe('the closing line of npm test', () => {
  it('[ci] a suite whose beforeAll throws counts as a failure though no test failed', () => {
    const report = vitestReport(
      "import { beforeAll, it, expect } from 'vitest'\n" +
        "beforeAll(() => { throw new Error('hook timed out') })\n" +
        "it('never runs', () => expect(1).toBe(1))\n",
    )
    expect(vitestTally(report).failed).toBeGreaterThanOrEqual(1)
    const result = summarize({
      reports: [{ step: 'unit', kind: 'vitest', path: 'r.json', report }],
      steps: [{ name: 'unit', status: 1 }],
    })
    expect(result.ok).toBe(false)
    expect(result.line).not.toMatch(/ 0 failed/)
  })

  it('[ci] a failed typecheck, lint, format, conformance or build step counts, with every test passing', () => {
    const report = { numPassedTests: 10, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0 }
    for (const name of ['typecheck', 'lint', 'format', 'conformance', 'build']) {
      const result = summarize({
        reports: [{ step: 'unit', kind: 'vitest', path: 'r.json', report }],
        steps: [
          { name, status: 2 },
          { name: 'unit', status: 0 },
        ],
      })
      expect(result.line).toBe('total: 10 passed, 1 failed, 0 skipped')
      expect(result.ok).toBe(false)
      expect(result.notes.join('\n')).toContain(`step ${name} exited 2`)
    }
  })

  it('[ci] a missing report or a Playwright error outside any test is a failure; a clean run is ok', () => {
    const missing = summarize({
      reports: [{ step: 'e2e', kind: 'playwright', path: 'none.json', report: null }],
      steps: [{ name: 'e2e', status: 1 }],
    })
    expect(missing.line).toBe('total: 0 passed, 1 failed, 0 skipped')
    const webServer = summarize({
      reports: [
        {
          step: 'e2e',
          kind: 'playwright',
          path: 'e.json',
          report: { stats: { expected: 0, unexpected: 0, skipped: 0, flaky: 0 }, errors: [{}] },
        },
      ],
      steps: [{ name: 'e2e', status: 1 }],
    })
    expect(webServer.failed).toBe(1)
    const clean = summarize({
      reports: [
        {
          step: 'e2e',
          kind: 'playwright',
          path: 'e.json',
          report: { stats: { expected: 3, unexpected: 0, skipped: 1, flaky: 1 }, errors: [] },
        },
      ],
      steps: [{ name: 'e2e', status: 0 }],
    })
    expect(clean).toMatchObject({ ok: true, line: 'total: 4 passed, 0 failed, 1 skipped' })
  })
})

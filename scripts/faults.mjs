// `npm run faults`: the fault-injection campaign (apps/api/src/faults, issue #29) as its own vitest
// run, with a JSON report (argv[2], default .ci-out/faults.json) that `npm test`'s closing line
// counts, and one line of figures: each test is one fault tried; handled = passed.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'

const report = resolve(process.argv[2] ?? '.ci-out/faults.json')
mkdirSync(dirname(report), { recursive: true })
const run = spawnSync(
  process.execPath,
  [
    'node_modules/vitest/vitest.mjs',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ],
  { stdio: 'inherit', env: { ...process.env, CUTOVER_FAULTS: '1' } },
)
let tried = 0
let handled = 0
let failed = 0
let skipped = 0
try {
  const json = JSON.parse(readFileSync(report, 'utf8'))
  handled = json.numPassedTests
  // A suite whose setup failed ran none of its faults: each counts as failed.
  failed =
    json.numFailedTests +
    (json.numFailedTestSuites > 0 && json.numFailedTests === 0
      ? json.numTotalTests - json.numPassedTests
      : 0)
  skipped = failed > json.numFailedTests ? 0 : json.numPendingTests + json.numTodoTests
  tried = handled + failed
} catch {
  failed = 1
  console.error(`faults: no report at ${report}`)
}
console.log(`faults: ${tried} tried, ${handled} handled, ${failed} failed, ${skipped} skipped`)
process.exit(run.status === 0 && failed === 0 && tried > 0 ? 0 : 1)

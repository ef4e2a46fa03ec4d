// Prints one plain closing line `total: N passed, N failed, N skipped` for `npm test` (CI reads
// that line, not the runners' own summaries), and exits 1 unless it says `0 failed` with tests
// passed.
//
//   node scripts/summarize-tests.mjs --steps FILE [--vitest FILE]... [--playwright FILE]...
//
// Every report's tests count. A suite that failed without a failed test (a `beforeAll` that threw,
// a file that did not load) counts as one failure, as does a Playwright error outside any test (its
// web server did not start). The steps file has one `<name> <exit status>` line per step of
// scripts/test.sh (typecheck, lint, conformance, build, unit, e2e, …): a step that exited non-zero
// and whose failures no report counted is one failure more, so the line never says `0 failed`
// when the run failed. A missing or unreadable report is one failure.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** Tallies of one vitest JSON report (`--reporter=json`). */
export function vitestTally(report) {
  const failedFiles = (report.testResults ?? []).filter(
    (file) =>
      file.status === 'failed' &&
      !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
  ).length
  return {
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + failedFiles,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  }
}

/** Tallies of one Playwright JSON report (`--reporter=json`). */
export function playwrightTally(report) {
  const stats = report.stats ?? {}
  return {
    passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
    failed: (stats.unexpected ?? 0) + (report.errors ?? []).length,
    skipped: stats.skipped ?? 0,
  }
}

/**
 * The closing tally of a test run. `reports`: `{ step, kind: 'vitest' | 'playwright', report }`
 * with `report` null when it could not be read; `steps`: `{ name, status }` per step run.
 */
export function summarize({ reports, steps }) {
  const total = { passed: 0, failed: 0, skipped: 0 }
  const notes = []
  const failedByStep = new Map()
  for (const { step, kind, report, path } of reports) {
    if (report === null) {
      total.failed += 1
      failedByStep.set(step, (failedByStep.get(step) ?? 0) + 1)
      notes.push(`no ${kind} report at ${path}: counted as one failure`)
      continue
    }
    const t = kind === 'vitest' ? vitestTally(report) : playwrightTally(report)
    total.passed += t.passed
    total.failed += t.failed
    total.skipped += t.skipped
    failedByStep.set(step, (failedByStep.get(step) ?? 0) + t.failed)
  }
  for (const { name, status } of steps) {
    if (status === 0 || (failedByStep.get(name) ?? 0) > 0) continue
    total.failed += 1
    notes.push(`step ${name} exited ${status} with no failed test counted: counted as one failure`)
  }
  const ok = total.failed === 0 && total.passed > 0
  if (total.passed === 0) notes.push('no test passed')
  return {
    ...total,
    ok,
    notes,
    line: `total: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`,
  }
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return null
  }
}

/** `<name> <status>` lines; a missing file means no step ran, which is itself one failure. */
function readSteps(path) {
  let text
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    return [{ name: `(steps file ${path})`, status: 1 }]
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [name, status] = line.trim().split(/\s+/)
      return { name, status: Number(status) }
    })
}

function main(argv) {
  const reports = []
  let steps = []
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]]
    if (flag === '--steps') steps = readSteps(value)
    else if (flag === '--vitest' || flag === '--playwright') {
      // `--vitest unit=.ci-out/vitest.json`: the step the report belongs to, then its path.
      const [step, path] = value.includes('=') ? value.split('=', 2) : [flag.slice(2), value]
      reports.push({ step, kind: flag.slice(2), path, report: readJson(path) })
    } else {
      console.error(`summarize-tests: unknown argument ${flag}`)
      return 2
    }
  }
  const result = summarize({ reports, steps })
  for (const note of result.notes) console.error(note)
  console.log(result.line)
  return result.ok ? 0 : 1
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(main(process.argv.slice(2)))

// Prints one plain closing line `N passed, N failed, N skipped` from the vitest and Playwright JSON
// reports (CI reads that line, not the runners' own summaries). Exits 1 on failures or no tests.
import { readFileSync } from 'node:fs'

const read = (path) => {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return null
  }
}
let passed = 0
let failed = 0
let skipped = 0
const vitest = read(process.argv[2])
if (vitest) {
  passed += vitest.numPassedTests
  failed += vitest.numFailedTests
  skipped += vitest.numPendingTests + vitest.numTodoTests
} else {
  failed += 1
  console.error('no vitest report: counted as one failure')
}
const e2e = read(process.argv[3])
if (e2e) {
  passed += e2e.stats.expected + e2e.stats.flaky
  failed += e2e.stats.unexpected
  skipped += e2e.stats.skipped
} else {
  failed += 1
  console.error('no Playwright report: counted as one failure')
}
console.log(`total: ${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(failed > 0 || passed === 0 ? 1 : 0)

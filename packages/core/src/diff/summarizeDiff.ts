import type { RunDiffSummary } from '../contracts/runDiff.ts'
import type { TraceDiff } from './diffTraces.ts'

/** The `cutover diff --json` object of an aligned pair of traces: identical, the first divergence, the count. Pure. */
export function summarizeDiff(diff: TraceDiff): RunDiffSummary {
  const first = diff.differences[0]
  return {
    identical: diff.identical,
    first_divergence: first === undefined ? null : { step_a: first.step_a, step_b: first.step_b, a: first.a[0] ?? null, b: first.b[0] ?? null },
    differences: diff.differences.length,
  }
}

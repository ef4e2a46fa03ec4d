import type { TraceEvent } from '../contracts/trace.ts'
import type { RunDiffSummary } from '../contracts/runDiff.ts'
import type { TraceDiff } from './diffTraces.ts'

/**
 * The `cutover diff --json` object of two aligned traces: identical, the first divergence and the
 * count of differences. The first divergence names each run's event at its step — where one run
 * has events the other lacks, the other's event there is the one its trace continues with (null
 * past its end). Pure.
 */
export function summarizeDiff(
  diff: TraceDiff,
  a: readonly TraceEvent[],
  b: readonly TraceEvent[],
): RunDiffSummary {
  const first = diff.differences[0]
  return {
    identical: diff.identical,
    first_divergence:
      first === undefined
        ? null
        : {
            step_a: first.step_a,
            step_b: first.step_b,
            a: a[first.step_a - 1] ?? null,
            b: b[first.step_b - 1] ?? null,
          },
    differences: diff.differences.length,
  }
}

import type { TraceEvent } from '@cutover/core/contracts'

/** The first step at which two traces differ (1-based), or undefined when identical. */
export function firstDifference(
  a: readonly TraceEvent[],
  b: readonly TraceEvent[],
): number | undefined {
  const n = Math.max(a.length, b.length)
  for (let i = 0; i < n; i += 1) {
    if (JSON.stringify(a[i]) !== JSON.stringify(b[i])) return i + 1
  }
  return undefined
}

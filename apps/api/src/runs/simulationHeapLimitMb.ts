/**
 * The V8 old-space budget of one simulation's worker thread, from its size: a fixed base for the
 * code, the Workplace tables and the views a finished run answers, plus a share per rollout. A run
 * of 10,000 rollouts gets 792 MB, 1,000 gets 252 MB.
 *
 * Measured (BENCH.md "Memory at 10,000 rollouts"): the in-memory happy-path run's live set peaks at
 * ≈ 60 MB + 45 KB per rollout (≈ 530 MB at 10,000, ≈ 90 MB at 1,000). Without a limit V8 lets the
 * heap grow to twice that or more before collecting (a 10,000-rollout run reached 1.15 GB of RSS);
 * with it, the collector works harder near the limit and the run's peak RSS stays under 1 GB. The
 * share per rollout leaves ≈ 1.5× headroom over the measured live set: a run that still outgrows
 * it fails with `ERR_WORKER_OUT_OF_MEMORY` (its run is marked failed, the server stays up).
 */
export function simulationHeapLimitMb(rollouts: number): number {
  return Math.round(192 + 0.06 * Math.max(0, rollouts))
}

/**
 * The V8 old-space budget of one simulation's worker thread, from its size: a fixed base for the
 * code, the Workplace tables and the views a finished run answers, plus a share per rollout. A run
 * of 10,000 rollouts gets 692 MB, 1,000 gets 242 MB.
 *  Measured (BENCH.md, round 4 "the file system and the memory budget"): the happy-path run's live
 * set is ≈ 45 KB per rollout after round 4 (≈ 435 MB at 10,000 with the result held). Without a
 * limit V8 let the heap grow to twice that before collecting (a 10,000-rollout run reached 1.15 GB
 * of RSS); with it, the collector works harder near the limit, at no measurable cost in speed, and
 * `cutover bench --rollouts 10000` (three 10,000-rollout runs in one such worker) peaks at 977 MB
 * of RSS with at most 595 MB of heap used. A run that still outgrows its budget fails with
 * `ERR_WORKER_OUT_OF_MEMORY` (its run is marked failed, the server stays up).
 */
export function simulationHeapLimitMb(rollouts: number): number {
  return Math.round(192 + 0.05 * Math.max(0, rollouts))
}

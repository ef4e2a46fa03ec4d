/**
 * The live V8 heap of one simulation's worker thread at its largest, measured: the largest heap
 * left after a mark-compact (`node --trace-gc`) over a happy-path run in the server's worker
 * (`startWorkerSimulation` on the real file system: the simulation, its checkpoint, the finished
 * result held for the views, and the trace's JSON built for the run store at the end). Measured
 * on Node 20.20 (issue #28, BENCH.md round 5): 59 MB at 1,000 rollouts, 416 MB at 10,000 (the peak
 * is at the end, the result and the trace JSON together); the bench's in-memory and
 * generation-safe runs of 10,000 peak lower (337–359 MB). The line through the two points:
 */
const LIVE_BASE_MB = 20
const LIVE_KB_PER_ROLLOUT = 40

/**
 * How far the budget sits above the measured live set. V8 fails a heap whose live set stays
 * near its limit (ineffective mark-compacts) and collects ever more often as it nears it; 1.75×
 * keeps the collector's pace while a 10,000-rollout bench stays under 1 GB of RSS (858 MB
 * measured with this budget).
 */
const HEADROOM = 1.75

/** The smallest budget: the code, the Workplace tables and a small run's views (≈ 45 MB live). */
const MIN_MB = 192

/**
 * The V8 old-space budget of one simulation's worker thread, from its size: the measured live set
 * of a run of that size (above) times `HEADROOM`, never below `MIN_MB`. A run of 10,000 rollouts
 * gets 719 MB, 1,000 gets 192 MB. A run that still outgrows its budget fails with
 * `ERR_WORKER_OUT_OF_MEMORY` (its run is marked failed, the server stays up).
 */
export function simulationHeapLimitMb(rollouts: number): number {
  const liveMb = LIVE_BASE_MB + (LIVE_KB_PER_ROLLOUT * Math.max(0, rollouts)) / 1024
  return Math.max(MIN_MB, Math.round(HEADROOM * liveMb))
}

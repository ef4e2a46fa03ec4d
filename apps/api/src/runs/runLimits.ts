import { availableParallelism } from 'node:os'
import type { Result } from '@cutover/core'
import { err, ok } from '@cutover/core'

/** How much work the server accepts (docs/security.md: bounded work). */
export interface RunLimits {
  /** Simulations running at once (`CUTOVER_MAX_SIMULATIONS`, default: the number of CPU cores). */
  readonly simulations: number
  /**
   * Runs waiting for a simulation slot before `POST /api/runs` is 429 `too_many_runs`
   * (`CUTOVER_MAX_QUEUED_RUNS`).
   */
  readonly queued: number
  /**
   * Runs the data directory holds before `POST /api/runs` is 507 `data_dir_full`
   * (`CUTOVER_MAX_RUNS`).
   */
  readonly runs: number
  /**
   * Live event streams per run before another is 429 `too_many_streams`
   * (`CUTOVER_MAX_STREAMS_PER_RUN`).
   */
  readonly streamsPerRun: number
}

/** The defaults: one simulation per core, a short queue, a data directory of a few hundred runs. */
export const defaultRunLimits = (): RunLimits => ({
  simulations: Math.max(1, availableParallelism()),
  queued: 16,
  runs: 500,
  streamsPerRun: 32,
})

/** Each limit's environment variable, and whether 0 is allowed. */
const VARIABLES: readonly (readonly [keyof RunLimits, string, number])[] = [
  ['simulations', 'CUTOVER_MAX_SIMULATIONS', 1],
  ['queued', 'CUTOVER_MAX_QUEUED_RUNS', 0],
  ['runs', 'CUTOVER_MAX_RUNS', 1],
  ['streamsPerRun', 'CUTOVER_MAX_STREAMS_PER_RUN', 1],
]

/**
 * The limits from the environment over the defaults; a value that is not a whole number in range is
 * an error naming it.
 */
export function readRunLimits(
  env: NodeJS.ProcessEnv,
  defaults: RunLimits = defaultRunLimits(),
): Result<RunLimits, string> {
  const limits: Record<keyof RunLimits, number> = { ...defaults }
  for (const [key, name, min] of VARIABLES) {
    const raw = env[name]
    if (raw === undefined || raw.trim() === '') continue
    if (!/^[0-9]{1,9}$/.test(raw.trim()) || Number(raw) < min)
      return err(`${name} must be a whole number from ${min}, got ${JSON.stringify(raw)}`)
    limits[key] = Number(raw)
  }
  return ok(limits)
}

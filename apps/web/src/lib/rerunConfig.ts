import { RECORDED_SCENARIO } from '@cutover/core/contracts'
import type { Fault, RunConfigInput, RunView } from '@cutover/core/contracts'

/**
 * The config of a new run like `run` (scenario, seed, rollouts, deadline, bug, cut mode) with
 * `faults` as its whole schedule — an explicit list, so an empty one means no fault rather than the
 * preset's.
 */
export function rerunConfig(
  run: Pick<RunView, 'scenario' | 'seed' | 'rollouts' | 'deadline_ms' | 'bug' | 'cut_mode'>,
  faults: readonly Fault[],
): RunConfigInput {
  if (run.scenario === RECORDED_SCENARIO)
    throw new Error('a run recorded from a real controller has no config to run again')
  return {
    scenario: run.scenario,
    seed: run.seed,
    rollouts: run.rollouts,
    deadline_ms: run.deadline_ms,
    faults: [...faults],
    ...(run.bug !== undefined ? { bug: run.bug } : {}),
    ...(run.cut_mode !== undefined ? { cut_mode: run.cut_mode } : {}),
  }
}

import type { RunView } from '@cutover/core/contracts'

/**
 * The shell command that reproduces a run. Faults that differ from the scenario's preset cannot be
 * passed to the CLI, so the caller says whether the run used the preset.
 */
export function simulateCommand(run: Pick<RunView, 'scenario' | 'seed' | 'rollouts'>): string {
  return `cutover simulate --scenario ${run.scenario} --seed ${run.seed} --rollouts ${run.rollouts}`
}

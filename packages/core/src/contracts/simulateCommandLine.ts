import type { RunView } from './views.ts'

/**
 * The `cutover simulate` command that reproduces a run byte for byte: scenario, seed, rollouts,
 * deadline, the run's own fault schedule (always, so a preset's later change cannot alter it) and
 * its teaching-mode bug. Fault JSON holds no single quote (ids, enums and numbers only), so one
 * pair of single quotes makes it one shell word.
 */
export function simulateCommandLine(run: Pick<RunView, 'scenario' | 'seed' | 'rollouts' | 'deadline_ms' | 'faults' | 'bug'>): string {
  const faults = JSON.stringify(run.faults)
  const bug = run.bug === undefined ? '' : ` --bug ${run.bug}`
  return `cutover simulate --scenario ${run.scenario} --seed ${run.seed} --rollouts ${run.rollouts} --deadline-ms ${run.deadline_ms} --faults '${faults}'${bug}`
}

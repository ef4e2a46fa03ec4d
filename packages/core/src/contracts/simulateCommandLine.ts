import type { RunView } from './views.ts'

/**
 * The `cutover simulate` command that reproduces a run byte for byte: scenario, seed, rollouts,
 * deadline, the cut mode when the run's config names one, the run's own fault schedule (always, so
 * a preset's later change cannot alter it) and its teaching-mode bug. Fault JSON holds no single
 * quote (ids, enums and numbers only), so one pair of single quotes makes it one shell word.
 */
export function simulateCommandLine(
  run: Pick<
    RunView,
    'scenario' | 'seed' | 'rollouts' | 'deadline_ms' | 'faults' | 'bug' | 'cut_mode'
  >,
): string {
  const faults = JSON.stringify(run.faults)
  const bug = run.bug === undefined ? '' : ` --bug ${run.bug}`
  // A run's config holds cut_mode only when it is not the default or not its scenario's: then it is
  // said.
  const cutMode = run.cut_mode === undefined ? '' : ` --cut-mode ${run.cut_mode}`
  return `npx cutover simulate --scenario ${run.scenario} --seed ${run.seed} --rollouts ${run.rollouts} --deadline-ms ${run.deadline_ms}${cutMode} --faults '${faults}'${bug}`
}

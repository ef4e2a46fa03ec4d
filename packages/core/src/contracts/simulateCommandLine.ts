import { DEFAULT_CUT_MODE } from './generationCuts.ts'
import type { RunView } from './views.ts'

/**
 * The `cutover simulate` command that reproduces a run byte for byte: scenario, seed, rollouts,
 * deadline, the cut mode when it is not the default, the run's own fault schedule (always, so a preset's later change cannot alter it) and
 * its teaching-mode bug. Fault JSON holds no single quote (ids, enums and numbers only), so one
 * pair of single quotes makes it one shell word.
 */
export function simulateCommandLine(run: Pick<RunView, 'scenario' | 'seed' | 'rollouts' | 'deadline_ms' | 'faults' | 'bug' | 'cut_mode'>): string {
  const faults = JSON.stringify(run.faults)
  const bug = run.bug === undefined ? '' : ` --bug ${run.bug}`
  const cutMode = run.cut_mode === undefined || run.cut_mode === DEFAULT_CUT_MODE ? '' : ` --cut-mode ${run.cut_mode}`
  return `cutover simulate --scenario ${run.scenario} --seed ${run.seed} --rollouts ${run.rollouts} --deadline-ms ${run.deadline_ms}${cutMode} --faults '${faults}'${bug}`
}

import type { RunView } from './views.ts'

/**
 * The `cutover fleet` command that records the same cycle again from real processes: scenario,
 * seed and rollouts. Unlike `simulateCommandLine` it cannot reproduce the run byte for byte — the
 * processes run on the wall clock — so it names only what `cutover fleet` takes.
 */
export function fleetCommandLine(run: Pick<RunView, 'scenario' | 'seed' | 'rollouts'>): string {
  return `npx cutover fleet --scenario ${run.scenario} --seed ${run.seed} --rollouts ${run.rollouts}`
}

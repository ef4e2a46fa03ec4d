import type { Fault, RunView } from '@cutover/core/contracts'
import { rerunConfig } from '../lib/rerunConfig.ts'
import { go } from '../router/navigation.ts'
import type { Tab } from '../router/route.ts'
import { useCreateRun } from './useCreateRun.ts'

/** What a re-run copies from its run. */
type RunLike = Pick<RunView, 'scenario' | 'seed' | 'rollouts' | 'deadline_ms' | 'bug'> & {
  readonly id?: string
}

/**
 * Re-running a run with another fault schedule: `rerun(run, faults, step, tab)` creates the new
 * run (`POST /api/runs`, same config) and opens it at the same step and tab; `error` is the API's
 * refusal, kept until the next attempt.
 */
export function useRerun() {
  const create = useCreateRun()
  const rerun = (run: RunLike, faults: readonly Fault[], step: number, tab: Tab) =>
    // the new run names its parent: its page links back, and Compare defaults to it
    create.mutate(
      { ...rerunConfig(run, faults), ...(run.id ? { parent: run.id } : {}) },
      {
        onSuccess: (created) => go({ page: 'run', id: created.id, step, tab, session: null }),
      },
    )
  return { rerun, pending: create.isPending, error: create.error }
}

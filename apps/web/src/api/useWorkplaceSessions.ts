import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { DEFAULT_SESSION_SORT } from '@cutover/core/contracts'
import { sessionsWindowQuery } from './queries.ts'
import { useSettledStep } from './useSettledStep.ts'

/** Every Workplace session a step can hold (a window as large as the route allows). */
const ALL = 100_000

/**
 * The Workplace sessions of `step` (the Tables tab's picker): a window of the sessions view with
 * `environment=workplace`, in the API's order, asked once the step settles; the previous step's
 * stay while the next load (`data.step` says which step they are). A third of the rows of the whole
 * list.
 */
export function useWorkplaceSessions(runId: string, step: number) {
  const asked = useSettledStep(runId, step)
  const params = {
    step: asked,
    offset: 0,
    limit: ALL,
    sort: DEFAULT_SESSION_SORT.column,
    dir: DEFAULT_SESSION_SORT.direction,
    q: '',
    environment: 'workplace' as const,
  }
  return useQuery({ ...sessionsWindowQuery(runId, params), placeholderData: keepPreviousData })
}

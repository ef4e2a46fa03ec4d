import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { sessionsQuery } from './queries.ts'
import { useSettledStep } from './useSettledStep.ts'

/**
 * Every session row of `step` (`GET /api/runs/:id/sessions?step=n`: the Tables tab's Workplace
 * picker), asked once the step settles (`useSettledStep`). Meanwhile, and while the next rows load,
 * the previous step's rows stay (no flicker): `data.step` says which step they are. The Sessions tab
 * asks only the rows in view (`useSessionWindow`).
 */
export function useSessionRows(runId: string, step: number) {
  const asked = useSettledStep(runId, step)
  return useQuery({ ...sessionsQuery(runId, asked), placeholderData: keepPreviousData })
}

import { useQuery } from '@tanstack/react-query'
import type { RunView } from '@cutover/core/contracts'
import { summaryQuery } from './queries.ts'

/**
 * The summary of a run (`GET /api/runs/:id/summary`): what the run page reads instead of the whole
 * trace. A running run's summary follows its live edge (asked again a few times a second); the
 * finished run's summary is asked once when its status changes.
 */
export function useRunSummary(id: string, run: RunView | undefined) {
  const query = useQuery({
    ...summaryQuery(id, run?.status),
    enabled: run !== undefined,
    placeholderData: (previous) => previous,
  })
  return {
    summary: query.data ?? null,
    live: run?.status === 'running',
    status: query.status,
    error: query.error,
  }
}

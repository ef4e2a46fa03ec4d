import { useQuery } from '@tanstack/react-query'
import type { TraceEvent } from '@cutover/core/contracts'
import { eventsRangeQuery } from './queries.ts'
import type { EventsRangeParams } from './queryKeys.ts'

/**
 * The most events a filtered range asks for at once (a rollout's events, a checkpoint's directory
 * writes).
 */
const ALL = 100_000

/**
 * Every event of a run matching a filter (a rollout's events, every `directory.write`), or null
 * while asked or when `enabled` is false. `edge` is the run's event count: a running run's filter
 * is asked again as it grows.
 */
export function useFilteredEvents(
  runId: string,
  filter: Omit<EventsRangeParams, 'from' | 'limit'>,
  edge: number,
  enabled: boolean,
): readonly TraceEvent[] | null {
  const query = useQuery({
    ...eventsRangeQuery(runId, { from: 0, limit: ALL, ...filter }, edge),
    enabled,
    placeholderData: (previous) => previous,
  })
  return enabled ? (query.data?.events ?? null) : null
}

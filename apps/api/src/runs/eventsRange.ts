import type { EventsRange, TraceEvent } from '@cutover/core/contracts'
import { eventMatches, filterWords } from '@cutover/core/contracts'
import { yieldToEventLoop } from './driveSimulation.ts'

/**
 * What a range of a run's events asks for (`GET
 * /api/runs/:id/events?from=&limit=&rollout=&type=&q=`).
 */
export interface EventsRangeQuery {
  /** The step after which the range starts (0: from the first event). */
  readonly from: number
  readonly limit: number
  readonly rollout?: string | undefined
  readonly type?: string | undefined
  /** The event log's filter words (`filterWords`): an event's line must contain each. */
  readonly q?: string | undefined
}

/**
 * Events a filtered range looks at per turn of the event loop (a rare word scans the whole trace).
 */
const SCAN_CHUNK = 10_000

/**
 * The events after step `from` of `events` (a run's trace, or its events so far), at most `limit`
 * of them. Without a filter it is a slice; with one it scans from `from` until `limit` events
 * matched, yielding to the event loop every SCAN_CHUNK events.
 */
export async function eventsRange(
  events: readonly TraceEvent[],
  query: EventsRangeQuery,
): Promise<EventsRange> {
  const total = events.length
  const from = Math.min(query.from, total)
  const words = filterWords(query.q ?? '')
  const filtered = query.rollout !== undefined || query.type !== undefined || words.length > 0
  if (!filtered) {
    const end = Math.min(total, from + query.limit)
    return { from, total, events: events.slice(from, end), next: end < total ? end : null }
  }
  const matches = (e: TraceEvent): boolean =>
    (query.rollout === undefined || e.payload['rollout_id'] === query.rollout) &&
    (query.type === undefined || e.type === query.type) &&
    eventMatches(e, words)
  const out: TraceEvent[] = []
  let i = from
  while (i < total && out.length < query.limit) {
    const stop = Math.min(total, i + SCAN_CHUNK)
    for (; i < stop && out.length < query.limit; i++)
      if (matches(events[i] as TraceEvent)) out.push(events[i] as TraceEvent)
    if (i < total && out.length < query.limit) await yieldToEventLoop()
  }
  return { from, total, events: out, next: i < total ? i : null }
}

import type { TraceEvent } from '@cutover/core/contracts'

/** One line of the raw event log: what the filter searches and what the log shows. */
export function eventText(event: TraceEvent): string {
  return `${event.type} ${event.from} → ${event.to} ${event.outcome} ${JSON.stringify(event.payload)}`
}

/** Events whose text contains every whitespace-separated word of the filter (case-insensitive). */
export function filterEvents(events: readonly TraceEvent[], filter: string): TraceEvent[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return [...events]
  return events.filter((event) => {
    const text = `${eventText(event)} ${event.phase} #${event.step}`.toLowerCase()
    return words.every((w) => text.includes(w))
  })
}

import type { TraceEvent } from './trace.ts'

/** One line of the raw event log: what the filter searches and what the log shows. */
export function eventText(event: TraceEvent): string {
  return `${event.type} ${event.from} → ${event.to} ${event.outcome} ${JSON.stringify(event.payload)}`
}

/**
 * The words of an event-log filter (whitespace-separated, case-insensitive); none matches
 * everything.
 */
export function filterWords(filter: string): string[] {
  return filter.toLowerCase().split(/\s+/).filter(Boolean)
}

/** Whether an event's line (with its phase and `#step`) contains every word of a filter. */
export function eventMatches(event: TraceEvent, words: readonly string[]): boolean {
  if (words.length === 0) return true
  const text = `${eventText(event)} ${event.phase} #${event.step}`.toLowerCase()
  return words.every((w) => text.includes(w))
}

/** Events whose text contains every whitespace-separated word of the filter (case-insensitive). */
export function filterEvents(events: readonly TraceEvent[], filter: string): TraceEvent[] {
  const words = filterWords(filter)
  return words.length === 0 ? [...events] : events.filter((event) => eventMatches(event, words))
}

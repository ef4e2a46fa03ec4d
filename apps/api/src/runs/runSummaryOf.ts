import type { RunSummary, RunSummaryBuilder, TraceEvent } from '@cutover/core/contracts'
import { createRunSummaryBuilder } from '@cutover/core/contracts'
import { yieldToEventLoop } from './driveSimulation.ts'

/** Events summarised per turn of the event loop when a summary catches up on a long trace. */
const SUMMARY_CHUNK = 20_000

/**
 * One builder per event array a run holds (RunManager keeps one array per run: it grows while the
 * run streams, and a trace read back or re-read after eviction is a new array, summarised afresh).
 */
const builders = new WeakMap<readonly TraceEvent[], RunSummaryBuilder>()

/**
 * The summary of a run's events (`runs.events(id)`), kept up to date incrementally: each event is
 * looked at once, when the first summary after it is asked, so a summary at a streaming run's edge
 * costs the events since the last one. A long catch-up (a finished run's first summary) goes in
 * chunks, yielding to the event loop between them. The summary is of the events as they were when
 * asked.
 */
export async function runSummaryOf(events: readonly TraceEvent[]): Promise<RunSummary> {
  let builder = builders.get(events)
  if (builder === undefined) {
    builder = createRunSummaryBuilder()
    builders.set(events, builder)
  }
  const total = events.length
  while (builder.count < total) {
    const end = Math.min(total, builder.count + SUMMARY_CHUNK)
    builder.addFrom(events.slice(builder.count, end), builder.count)
    if (builder.count < total) await yieldToEventLoop()
  }
  // Two requests may catch up at once: the later one may see events past `total`, which is fine (an
  // edge is a snapshot).
  return builder.summary()
}

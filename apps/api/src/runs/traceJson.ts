import type { TraceEvent } from '@cutover/core/contracts'
import { yieldToEventLoop } from './driveSimulation.ts'

/** Events serialised per turn of the event loop. */
const EVENTS_PER_TURN = 2000

/**
 * The bytes of `trace.json` (`JSON.stringify(events)` and a newline, byte for byte), built a few
 * thousand events per turn of the event loop: one `JSON.stringify` of a 1,000-rollout trace held the
 * server for 125–450 ms.
 */
export async function traceJson(events: readonly TraceEvent[]): Promise<string> {
  const parts: string[] = []
  for (let i = 0; i < events.length; i += EVENTS_PER_TURN) {
    if (i > 0) await yieldToEventLoop()
    const chunk = JSON.stringify(events.slice(i, i + EVENTS_PER_TURN))
    parts.push(chunk.slice(1, -1))
  }
  return `[${parts.join(',')}]\n`
}

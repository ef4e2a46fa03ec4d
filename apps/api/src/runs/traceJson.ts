import type { TraceEvent } from '@cutover/core/contracts'
import { yieldToEventLoop } from './driveSimulation.ts'

/** Events serialised per turn of the event loop. */
const EVENTS_PER_TURN = 2000

/**
 * `JSON.stringify(events)` in pieces of a few thousand events: the pieces joined are the same text
 * byte for byte. A caller yields to the event loop between pieces: one `JSON.stringify` of a
 * 1,000-rollout trace held the server for 125–450 ms (a 10,000-rollout one for seconds).
 */
export function* eventsJsonPieces(events: readonly TraceEvent[]): Generator<string, void, void> {
  if (events.length === 0) {
    yield '[]'
    return
  }
  for (let i = 0; i < events.length; i += EVENTS_PER_TURN) {
    const chunk = JSON.stringify(events.slice(i, i + EVENTS_PER_TURN))
    yield `${i === 0 ? '[' : ','}${chunk.slice(1, -1)}${i + EVENTS_PER_TURN >= events.length ? ']' : ''}`
  }
}

/**
 * The bytes of `trace.json` (`JSON.stringify(events)` and a newline, byte for byte), a piece per
 * turn of the event loop.
 */
export async function traceJson(events: readonly TraceEvent[]): Promise<string> {
  const parts: string[] = []
  for (const piece of eventsJsonPieces(events)) {
    if (parts.length > 0) await yieldToEventLoop()
    parts.push(piece)
  }
  return `${parts.join('')}\n`
}

/**
 * `{"events":[…]}` (`JSON.stringify({ events })` byte for byte) as a response body streamed a piece
 * per turn of the event loop, so a large run's events never hold the server in one encode.
 */
export function eventsJsonBody(events: readonly TraceEvent[]): ReadableStream<Uint8Array> {
  const pieces = eventsJsonPieces(events)
  const encoder = new TextEncoder()
  let started = false
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (started) await yieldToEventLoop()
      const next = pieces.next()
      if (next.done === true) {
        controller.enqueue(encoder.encode('}'))
        controller.close()
        return
      }
      controller.enqueue(encoder.encode(`${started ? '' : '{"events":'}${next.value}`))
      started = true
    },
  })
}

import { describe, expect, it } from 'vitest'
import type { TraceEvent } from '@cutover/core/contracts'
import { eventsJsonBody, eventsJsonPieces, traceJson } from './traceJson.ts'

const events = Array.from(
  { length: 4501 },
  (_, i) =>
    ({
      step: i + 1,
      time_ms: i,
      phase: 'run',
      from: 'a',
      to: 'b',
      type: 'run.start',
      payload: { n: i, s: 'é"\n' },
      outcome: 'ok',
    }) as unknown as TraceEvent,
)
const SIZES = [0, 1, 2000, 2001, 4000, 4501]

describe('traceJson', () => {
  it('is JSON.stringify(events) and a newline, byte for byte, across chunk boundaries', async () => {
    for (const n of SIZES)
      expect(await traceJson(events.slice(0, n))).toBe(`${JSON.stringify(events.slice(0, n))}\n`)
  })

  it('streams the events route body as JSON.stringify({ events }), byte for byte, in several pieces', async () => {
    for (const n of SIZES)
      expect(await new Response(eventsJsonBody(events.slice(0, n))).text()).toBe(
        JSON.stringify({ events: events.slice(0, n) }),
      )
    expect([...eventsJsonPieces(events)].length).toBe(3)
  })
})

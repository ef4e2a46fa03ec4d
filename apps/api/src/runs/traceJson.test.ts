import { describe, expect, it } from 'vitest'
import type { TraceEvent } from '@cutover/core/contracts'
import { traceJson } from './traceJson.ts'

describe('traceJson', () => {
  it('is JSON.stringify(events) and a newline, byte for byte, across chunk boundaries', async () => {
    const events = Array.from({ length: 4501 }, (_, i) => ({ step: i + 1, time_ms: i, phase: 'run', from: 'a', to: 'b', type: 'run.start', payload: { n: i, s: 'é"\n' }, outcome: 'ok' }) as unknown as TraceEvent)
    for (const n of [0, 1, 2000, 2001, 4501]) expect(await traceJson(events.slice(0, n))).toBe(`${JSON.stringify(events.slice(0, n))}\n`)
  })
})

import { afterAll, describe, expect, it } from 'vitest'
import type { RunView, TraceEvent } from '@cutover/core/contracts'
import { apiHarness, tempDataDir } from '../testing/apiHarness.ts'

interface SseMessage {
  readonly event: string
  readonly id: string | undefined
  readonly data: string
}

/** Reads a whole SSE stream into messages. */
async function readSse(response: Response): Promise<SseMessage[]> {
  const text = await response.text()
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const fields = new Map<string, string>()
      for (const line of block.split('\n')) {
        const at = line.indexOf(':')
        const key = line.slice(0, at)
        const value = line.slice(at + 1).replace(/^ /, '')
        fields.set(key, fields.has(key) && key === 'data' ? `${fields.get(key)}\n${value}` : value)
      }
      return {
        event: fields.get('event') ?? 'message',
        id: fields.get('id'),
        data: fields.get('data') ?? '',
      }
    })
}

describe('event stream (SSE)', () => {
  const { dir, cleanup } = tempDataDir()
  const api = apiHarness(dir)
  afterAll(cleanup)

  it('[sse] 20 concurrent clients of a running simulation each receive every event in order, then end', async () => {
    const created = await api.createRun({
      scenario: 'straggler-retirement',
      seed: 11,
      rollouts: 12,
    })
    expect(created.status).toBe('running')
    const streams = await Promise.all(
      Array.from({ length: 20 }, () =>
        api.app.request(`/api/runs/${created.id}/events`, {
          headers: { accept: 'text/event-stream' },
        }),
      ),
    )
    for (const s of streams) expect(s.headers.get('content-type')).toContain('text/event-stream')
    const received = await Promise.all(streams.map(readSse))
    const run = (await api.json(`/api/runs/${created.id}`)).body as RunView
    expect(run.status).toBe('complete')
    const trace = (await api.json(`/api/runs/${created.id}/events`)).body.events as TraceEvent[]
    for (const messages of received) {
      const traceMessages = messages.filter((m) => m.event === 'trace')
      expect(traceMessages.length).toBe(run.events)
      expect(traceMessages.map((m) => Number(m.id))).toEqual(trace.map((e) => e.step))
      expect(traceMessages.map((m) => JSON.parse(m.data))).toEqual(trace)
      const last = messages[messages.length - 1]
      expect(last?.event).toBe('end')
      expect(JSON.parse(last?.data ?? 'null')).toEqual(run)
    }
  })

  it('[sse] Last-Event-ID (or ?from=) resumes after that step; a malformed one is refused', async () => {
    const run = (await api.json('/api/runs')).body.runs[0] as RunView
    const resumed = await readSse(
      await api.app.request(`/api/runs/${run.id}/events`, {
        headers: { accept: 'text/event-stream', 'last-event-id': '10' },
      }),
    )
    const ids = resumed.filter((m) => m.event === 'trace').map((m) => Number(m.id))
    expect(ids[0]).toBe(11)
    expect(ids.length).toBe(run.events - 10)
    expect(resumed[resumed.length - 1]?.event).toBe('end')
    // `?from=` starts the stream there as well; a reconnect's Last-Event-ID wins over it
    const from = await readSse(
      await api.app.request(`/api/runs/${run.id}/events?from=20`, {
        headers: { accept: 'text/event-stream' },
      }),
    )
    expect(from.filter((m) => m.event === 'trace').map((m) => Number(m.id))[0]).toBe(21)
    const both = await readSse(
      await api.app.request(`/api/runs/${run.id}/events?from=20`, {
        headers: { accept: 'text/event-stream', 'last-event-id': '10' },
      }),
    )
    expect(both.filter((m) => m.event === 'trace').map((m) => Number(m.id))[0]).toBe(11)
    const badFrom = await api.app.request(`/api/runs/${run.id}/events?from=x`, {
      headers: { accept: 'text/event-stream' },
    })
    expect(badFrom.status).toBe(400)
    const bad = await api.app.request(`/api/runs/${run.id}/events`, {
      headers: { accept: 'text/event-stream', 'last-event-id': 'abc' },
    })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('invalid_request')
  })

  it('[sse] the server keeps answering while a large run simulates', async () => {
    const created = await api.createRun({ scenario: 'happy-path', seed: 5, rollouts: 24 })
    // Health answers between batches, before the run has finished.
    const health = await api.json('/api/health')
    expect(health.status).toBe(200)
    const during = (await api.json(`/api/runs/${created.id}`)).body as RunView
    expect(during.status).toBe('running')
    await api.runs.idle()
    expect(((await api.json(`/api/runs/${created.id}`)).body as RunView).status).toBe('complete')
  })
})

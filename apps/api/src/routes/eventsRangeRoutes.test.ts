import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventsRange, RunSummary, RunView, TraceEvent } from '@cutover/core/contracts'
import { filterEvents, runSummary } from '@cutover/core/contracts'
import { apiHarness, tempDataDir } from '../testing/apiHarness.ts'
import { traceReader } from '../runs/readTraceInWorker.ts'

describe('the run summary and events by range (GET /api/runs/:id/summary, /events?from=&limit=)', () => {
  const { dir, cleanup } = tempDataDir()
  const api = apiHarness(dir)
  let run: RunView
  let all: TraceEvent[]
  beforeAll(async () => {
    run = await api.waitComplete(
      (await api.createRun({ scenario: 'straggler-retirement', seed: 4 })).id,
    )
    all = ((await api.json(`/api/runs/${run.id}/events`)).body as { events: TraceEvent[] }).events
  })
  afterAll(cleanup)

  it('[api] the summary is the whole trace summarised: total, phase bands, phases, key moments, last event', async () => {
    const { status, body } = (await api.json(`/api/runs/${run.id}/summary`)) as {
      status: number
      body: RunSummary
    }
    expect(status).toBe(200)
    expect(body).toEqual(JSON.parse(JSON.stringify(runSummary(all))))
    expect(body.total).toBe(run.events)
    expect(body.last?.step).toBe(run.events)
    expect(body.bands.length).toBeGreaterThan(0)
    expect(body.moments.some((m) => m.kind === 'retired')).toBe(true)
    // asked again (the builder is kept): the same
    expect((await api.json(`/api/runs/${run.id}/summary`)).body).toEqual(body)
  })

  it('[api] a range is the events after `from`, at most `limit`, with the `from` that continues it', async () => {
    const page = (await api.json(`/api/runs/${run.id}/events?from=10&limit=25`)).body as EventsRange
    expect(page).toEqual({ from: 10, total: run.events, events: all.slice(10, 35), next: 35 })
    const last = (await api.json(`/api/runs/${run.id}/events?from=${run.events - 3}&limit=25`))
      .body as EventsRange
    expect(last).toEqual({
      from: run.events - 3,
      total: run.events,
      events: all.slice(-3),
      next: null,
    })
    expect(
      ((await api.json(`/api/runs/${run.id}/events?from=${run.events}`)).body as EventsRange)
        .events,
    ).toEqual([])
    // the default limit is 1,000
    expect(
      ((await api.json(`/api/runs/${run.id}/events?from=0`)).body as EventsRange).events,
    ).toEqual(all.slice(0, 1000))
    // without a range the whole list is unchanged (docs/http-api.md)
    expect(all).toHaveLength(run.events)
  })

  it('[api] filters: a rollout, an event type, the event log words; a page of matches continues after its last look', async () => {
    const r0 = (await api.json(`/api/runs/${run.id}/events?rollout=r0&limit=100000`))
      .body as EventsRange
    expect(r0.events).toEqual(all.filter((e) => e.payload['rollout_id'] === 'r0'))
    expect(r0.next).toBeNull()
    const writes = (await api.json(`/api/runs/${run.id}/events?type=directory.write&limit=100000`))
      .body as EventsRange
    expect(writes.events).toEqual(all.filter((e) => e.type === 'directory.write'))
    const matching = filterEvents(all, 'agent ok')
    const first = (
      await api.json(`/api/runs/${run.id}/events?q=${encodeURIComponent('Agent  OK')}&limit=3`)
    ).body as EventsRange
    expect(first.events).toEqual(matching.slice(0, 3))
    const second = (
      await api.json(`/api/runs/${run.id}/events?q=agent+ok&limit=3&from=${String(first.next)}`)
    ).body as EventsRange
    expect(second.events).toEqual(matching.slice(3, 6))
  })

  it('[api] a bad range parameter is 400 invalid_request naming it; an unknown run 404', async () => {
    for (const [query, named] of [
      ['from=x', 'from'],
      ['from=-1', 'from'],
      ['limit=0', 'limit'],
      ['limit=100001', 'limit'],
      ['limit=1.5', 'limit'],
      ['rollout=a%20b', 'rollout'],
      ['type=Bad!', 'type'],
      ['extra=1', 'extra'],
    ] as const) {
      const r = await api.json(`/api/runs/${run.id}/events?${query}`)
      expect(r, query).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } })
      expect(r.body.error.message, query).toContain(named)
    }
    expect(await api.json(`/api/runs/${run.id}/summary?step=1`)).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request' } },
    })
    expect(await api.json('/api/runs/zzzzzzzzzzz/summary')).toMatchObject({
      status: 404,
      body: { error: { code: 'run_not_found' } },
    })
    expect(await api.json('/api/runs/zzzzzzzzzzz/events?from=0')).toMatchObject({
      status: 404,
      body: { error: { code: 'run_not_found' } },
    })
  })
})

describe('the summary and ranges of a running run', () => {
  const { dir, cleanup } = tempDataDir()
  const api = apiHarness(dir)
  afterAll(async () => {
    await api.runs.idle()
    cleanup()
  })

  it('[api] a running run answers its summary and ranges at its current edge, without waiting for its end', async () => {
    const created = await api.createRun({ scenario: 'happy-path', rollouts: 300 })
    let seen: RunSummary | undefined
    for (let i = 0; i < 500 && seen === undefined; i += 1) {
      const summary = (await api.json(`/api/runs/${created.id}/summary`)).body as RunSummary
      const now = (await api.json(`/api/runs/${created.id}`)).body as RunView
      if (summary.total > 0 && now.status === 'running') seen = summary
      else if (now.status !== 'running') break
      else await new Promise((resolve) => setTimeout(resolve, 10))
    }
    if (seen === undefined)
      throw new Error('the run finished before a summary of it while running was seen')
    expect(seen.last?.step).toBe(seen.total)
    // a range at the edge it saw: the events up to it, and those after it once they exist
    const edge = (await api.json(`/api/runs/${created.id}/events?from=${seen.total - 1}&limit=1`))
      .body as EventsRange
    expect(edge.events[0]).toEqual(seen.last)
    const done = await api.waitComplete(created.id)
    expect(seen.total).toBeLessThan(done.events)
    const all = (
      (await api.json(`/api/runs/${created.id}/events`)).body as { events: TraceEvent[] }
    ).events
    // the summary kept up to date while the run streamed is the summary of the whole trace
    expect((await api.json(`/api/runs/${created.id}/summary`)).body).toEqual(
      JSON.parse(JSON.stringify(runSummary(all))),
    )
    expect(JSON.parse(JSON.stringify(runSummary(all.slice(0, seen.total))))).toEqual(seen)
  })
})

describe('a reloaded run read off the server thread', () => {
  const { dir, cleanup } = tempDataDir()
  afterAll(cleanup)

  it('[api] a reloaded finished run reads its trace.json once in a worker thread; summary, ranges and the whole list answer from it', async () => {
    const first = apiHarness(dir)
    const run = await first.waitComplete(
      (await first.createRun({ scenario: 'happy-path', seed: 8 })).id,
    )
    const all = ((await first.json(`/api/runs/${run.id}/events`)).body as { events: TraceEvent[] })
      .events
    const read = traceReader(dir)
    const asked: string[] = []
    const reloaded = apiHarness(dir, {
      readTrace: (id) => {
        asked.push(id)
        return read(id)
      },
    })
    const [summary, range] = await Promise.all([
      reloaded.json(`/api/runs/${run.id}/summary`),
      reloaded.json(`/api/runs/${run.id}/events?from=5&limit=7`),
    ])
    expect(summary.body).toEqual(JSON.parse(JSON.stringify(runSummary(all))))
    expect((range.body as EventsRange).events).toEqual(all.slice(5, 12))
    expect(
      ((await reloaded.json(`/api/runs/${run.id}/events`)).body as { events: TraceEvent[] }).events,
    ).toEqual(all)
    expect(asked).toEqual([run.id])
    // a run without a trace reads as none
    expect(await read('zzzzzzzzzzz')).toBeUndefined()
  })
})

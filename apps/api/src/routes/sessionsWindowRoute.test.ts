import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { RunView, SessionsView, SessionsWindow } from '@cutover/core/contracts'
import { SESSION_COLUMNS, SORT_DIRECTIONS, sortSessions } from '@cutover/core/contracts'
import { apiHarness, tempDataDir } from '../testing/apiHarness.ts'

describe('a window of the sessions view (GET /api/runs/:id/sessions?offset=&limit=&sort=&dir=&q=&session=)', () => {
  const { dir, cleanup } = tempDataDir()
  const api = apiHarness(dir)
  const runs: RunView[] = []
  beforeAll(async () => {
    for (const [scenario, seed] of [
      ['happy-path', 3],
      ['straggler-retirement', 4],
      ['crash-during-commit', 7],
    ] as const) {
      const created = await api.createRun({ scenario, seed, rollouts: 40 })
      runs.push(await api.waitComplete(created.id))
    }
  })
  afterAll(cleanup)

  it('[api] a window is { step, total, count, matched, offset, sessions }; without window parameters the whole list is unchanged', async () => {
    const run = runs[0] as RunView
    const n = Math.floor(run.events / 2)
    const whole = (await api.json(`/api/runs/${run.id}/sessions?step=${n}`)).body as SessionsView
    expect(Object.keys(whole).sort()).toEqual(['sessions', 'step', 'total'])
    const { status, body } = (await api.json(
      `/api/runs/${run.id}/sessions?step=${n}&offset=2&limit=5`,
    )) as { status: number; body: SessionsWindow }
    expect(status).toBe(200)
    expect(body).toEqual({
      step: n,
      total: run.events,
      count: whole.sessions.length,
      matched: whole.sessions.length,
      offset: 2,
      sessions: whole.sessions.slice(2, 7),
    })
    // defaults: offset 0, limit 1,000, rollout_id ascending (the API's order); limit 0 gives the
    // counts alone
    expect(
      (
        (await api.json(`/api/runs/${run.id}/sessions?step=${n}&sort=rollout_id`))
          .body as SessionsWindow
      ).sessions,
    ).toEqual(whole.sessions)
    expect((await api.json(`/api/runs/${run.id}/sessions?step=${n}&limit=0`)).body).toMatchObject({
      count: whole.sessions.length,
      sessions: [],
    })
    // an offset past the matched rows is clamped to their end; step 0 has none
    expect(
      (await api.json(`/api/runs/${run.id}/sessions?step=${n}&offset=99999&limit=5`)).body,
    ).toMatchObject({ offset: whole.sessions.length, sessions: [] })
    expect((await api.json(`/api/runs/${run.id}/sessions?step=0&limit=5`)).body).toEqual({
      step: 0,
      total: run.events,
      count: 0,
      matched: 0,
      offset: 0,
      sessions: [],
    })
  })

  it('[api] any window, order and filter is the slice of the whole list sorted and filtered by sortSessions (property, three runs)', async () => {
    const wholes = new Map<string, SessionsView>()
    const wholeAt = async (run: RunView, step: number): Promise<SessionsView> => {
      const key = `${run.id}@${step}`
      if (!wholes.has(key))
        wholes.set(
          key,
          (await api.json(`/api/runs/${run.id}/sessions?step=${step}`)).body as SessionsView,
        )
      return wholes.get(key) as SessionsView
    }
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: runs.length - 1 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: 0, max: 60 }),
        fc.constantFrom(...SESSION_COLUMNS),
        fc.constantFrom(...SORT_DIRECTIONS),
        fc.constantFrom('', 'bound', 'WORK', ' r1', 'a1', 'count', 'retired', 'zzz', '3'),
        async (r, at, offset, limit, column, direction, q) => {
          const run = runs[r] as RunView
          const step = Math.round(at * run.events)
          const sorted = sortSessions((await wholeAt(run, step)).sessions, q, { column, direction })
          const path = `/api/runs/${run.id}/sessions?step=${step}&offset=${offset}&limit=${limit}&sort=${column}&dir=${direction}&q=${encodeURIComponent(q)}`
          const window = (await api.json(path)).body as SessionsWindow
          expect(window.matched).toBe(sorted.length)
          expect(window.offset).toBe(Math.min(offset, sorted.length))
          expect(window.sessions).toEqual(sorted.slice(offset, offset + limit))
          // the selected session's place among the matched rows
          const pick = sorted[offset % Math.max(sorted.length, 1)]
          if (pick !== undefined) {
            const located = (await api.json(`${path}&session=${pick.key}`)).body as SessionsWindow
            expect(located.selected).toEqual({
              key: pick.key,
              exists: true,
              index: sorted.indexOf(pick),
            })
          }
        },
      ),
      { numRuns: 60, seed: 15 },
    )
  })

  it('[api] `session=` says whether a session exists at the step and where the filter puts it', async () => {
    const run = runs[1] as RunView
    const whole = (await api.json(`/api/runs/${run.id}/sessions`)).body as SessionsView
    const row = whole.sessions[3]
    if (row === undefined) throw new Error('the run has too few sessions')
    const base = `/api/runs/${run.id}/sessions?limit=0&session=${row.key}`
    expect(((await api.json(base)).body as SessionsWindow).selected).toEqual({
      key: row.key,
      exists: true,
      index: 3,
    })
    expect(((await api.json(`${base}&q=zzz-nothing`)).body as SessionsWindow).selected).toEqual({
      key: row.key,
      exists: true,
      index: null,
    })
    expect(
      (
        (await api.json(`/api/runs/${run.id}/sessions?limit=0&session=r999.a9`))
          .body as SessionsWindow
      ).selected,
    ).toEqual({ key: 'r999.a9', exists: false, index: null })
  })

  it('[api] `environment=` keeps one environment’s sessions (the Tables tab’s Workplace picker); `count` is still every row at the step', async () => {
    const run = runs[2] as RunView
    const whole = (await api.json(`/api/runs/${run.id}/sessions`)).body as SessionsView
    const workplace = whole.sessions.filter((r) => r.environment === 'workplace')
    expect(workplace.length).toBeGreaterThan(0)
    const window = (
      await api.json(`/api/runs/${run.id}/sessions?environment=workplace&limit=100000`)
    ).body as SessionsWindow
    expect(window).toMatchObject({
      count: whole.sessions.length,
      matched: workplace.length,
      sessions: workplace,
    })
    const sorted = (
      await api.json(
        `/api/runs/${run.id}/sessions?environment=workplace&sort=summary&dir=desc&q=row`,
      )
    ).body as SessionsWindow
    expect(sorted.sessions).toEqual(
      sortSessions(workplace, 'row', { column: 'summary', direction: 'desc' }),
    )
  })

  it('[api] a bad window parameter is 400 invalid_request naming it, and changes nothing', async () => {
    const run = runs[0] as RunView
    const before = (await api.json(`/api/runs/${run.id}/sessions`)).body as SessionsView
    const bad: [string, string][] = [
      ['offset=-1', 'offset'],
      ['offset=x', 'offset'],
      ['limit=1.5', 'limit'],
      ['limit=100001', 'limit'],
      ['sort=key', 'sort'],
      ['sort=summary&dir=up', 'dir'],
      [`q=${'x'.repeat(201)}`, 'q'],
      ['session=nope', 'session'],
      ['environment=mars', 'environment'],
      ['step=x&limit=5', 'step'],
      [`step=${run.events + 1}&limit=5`, 'past the end'],
      ['limit=5&extra=1', 'extra'],
    ]
    for (const [query, named] of bad) {
      const r = await api.json(`/api/runs/${run.id}/sessions?${query}`)
      expect(r, query).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } })
      expect(r.body.error.message, query).toContain(named)
    }
    expect((await api.json(`/api/runs/${run.id}/sessions`)).body).toEqual(before)
  })
})

describe('a window of the sessions of a running run', () => {
  const { dir, cleanup } = tempDataDir()
  const api = apiHarness(dir)
  afterAll(async () => {
    await api.runs.idle()
    cleanup()
  })

  it('[api] a running run answers a window at its current edge, the same window it answers once finished', async () => {
    const created = await api.createRun({ scenario: 'happy-path', rollouts: 300 })
    let seen: SessionsWindow | undefined
    const path = `/api/runs/${created.id}/sessions?offset=5&limit=20&sort=state&dir=desc`
    for (let i = 0; i < 500 && seen === undefined; i += 1) {
      const r = await api.json(path)
      expect(r.status).toBe(200)
      const window = r.body as SessionsWindow
      const now = (await api.json(`/api/runs/${created.id}`)).body as RunView
      if (window.total > 0 && window.count > 25 && now.status === 'running') seen = window
      else if (now.status !== 'running') break
      else await new Promise((resolve) => setTimeout(resolve, 10))
    }
    if (seen === undefined)
      throw new Error('the run finished before a window of it while running was seen')
    expect(seen.step).toBe(seen.total)
    const done = await api.waitComplete(created.id)
    expect(seen.total).toBeLessThan(done.events)
    const whole = (await api.json(`/api/runs/${created.id}/sessions?step=${seen.step}`))
      .body as SessionsView
    expect(seen.sessions).toEqual(
      sortSessions(whole.sessions, '', { column: 'state', direction: 'desc' }).slice(5, 25),
    )
    expect((await api.json(`${path}&step=${seen.step}`)).body).toEqual({
      ...seen,
      total: done.events,
    })
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunView, SessionsView, StepView } from '@cutover/core/contracts'
import { apiHarness, tempDataDir } from '../testing/apiHarness.ts'

describe('the sessions view (GET /api/runs/:id/sessions)', () => {
  const { dir, cleanup } = tempDataDir()
  const api = apiHarness(dir)
  let run: RunView
  beforeAll(async () => {
    run = await api.waitComplete((await api.createRun({ scenario: 'happy-path', seed: 3 })).id)
  })
  afterAll(cleanup)

  it('[api] the session rows at a step are a view of their own; the step view does not carry them', async () => {
    const n = Math.floor(run.events / 2)
    const { status, body } = (await api.json(`/api/runs/${run.id}/sessions?step=${n}`)) as {
      status: number
      body: SessionsView
    }
    expect(status).toBe(200)
    expect(body).toMatchObject({ step: n, total: run.events })
    expect(body.sessions.length).toBeGreaterThan(0)
    // each row is the session detail's row at that step
    for (const row of body.sessions.slice(0, 3))
      expect(
        (await api.json(`/api/runs/${run.id}/sessions/${row.key}?step=${n}`)).body.session,
      ).toEqual(row)
    const step = (await api.json(`/api/runs/${run.id}/steps/${n}`)).body as StepView
    expect(step).not.toHaveProperty('sessions')
    expect(step.step).toBe(n)
    // without ?step= the view is at the end of the run; step 0 has no sessions yet
    const end = (await api.json(`/api/runs/${run.id}/sessions`)).body as SessionsView
    expect([end.step, end.total]).toEqual([run.events, run.events])
    // every rollout's attempts (a continued rollout has two)
    expect(new Set(end.sessions.map((s) => s.rollout_id)).size).toBe(run.rollouts)
    expect((await api.json(`/api/runs/${run.id}/sessions?step=0`)).body).toEqual({
      step: 0,
      total: run.events,
      sessions: [],
    })
  })

  it('[api] a bad step or query is 400 invalid_request naming it, an unknown run 404 run_not_found', async () => {
    for (const query of ['step=x', 'step=-1', 'step=1.5', `step=${run.events + 1}`, 'extra=1']) {
      const r = await api.json(`/api/runs/${run.id}/sessions?${query}`)
      expect(r, query).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } })
    }
    expect((await api.json(`/api/runs/${run.id}/sessions?step=x`)).body.error.message).toContain(
      'step',
    )
    expect(
      (await api.json(`/api/runs/${run.id}/sessions?step=${run.events + 1}`)).body.error.message,
    ).toContain('past the end')
    expect(await api.json('/api/runs/zzzzzzzzzzz/sessions')).toMatchObject({
      status: 404,
      body: { error: { code: 'run_not_found' } },
    })
    expect(await api.json('/api/runs/BAD!/sessions')).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request' } },
    })
  })
})

describe('the sessions view of a running run', () => {
  const { dir, cleanup } = tempDataDir()
  const api = apiHarness(dir)
  afterAll(async () => {
    await api.runs.idle()
    cleanup()
  })

  it('[api] a running run answers its sessions at its current edge, without waiting for its end', async () => {
    const created = await api.createRun({ scenario: 'happy-path', rollouts: 300 })
    let seen: SessionsView | undefined
    for (let i = 0; i < 500 && seen === undefined; i += 1) {
      const r = await api.json(`/api/runs/${created.id}/sessions`)
      expect(r.status).toBe(200)
      const view = r.body as SessionsView
      const now = (await api.json(`/api/runs/${created.id}`)).body as RunView
      if (view.total > 0 && now.status === 'running') seen = view
      else if (now.status !== 'running') break
      else await new Promise((resolve) => setTimeout(resolve, 10))
    }
    if (seen === undefined)
      throw new Error('the run finished before a view of it while running was seen')
    // at its edge: the step is the events the request saw, and the rows are those of that step
    expect(seen.step).toBe(seen.total)
    const done = await api.waitComplete(created.id)
    expect(seen.total).toBeLessThan(done.events)
    expect((await api.json(`/api/runs/${created.id}/sessions?step=${seen.step}`)).body).toEqual({
      ...seen,
      total: done.events,
    })
  })
})

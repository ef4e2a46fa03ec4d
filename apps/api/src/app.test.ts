import { existsSync, readdirSync, symlinkSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { INVARIANT_IDS, MAX_ROLLOUTS, SCENARIO_NAMES } from '@cutover/core/contracts'
import type { RunView, StepView } from '@cutover/core/contracts'
import { API_BODY_LIMIT } from './http/bodyLimits.ts'
import { JSON_DELETE, apiHarness, tempDataDir } from './testing/apiHarness.ts'

const post = (body: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body,
})

describe('runs API', () => {
  const { dir, cleanup } = tempDataDir()
  const api = apiHarness(dir)
  let run: RunView
  beforeAll(async () => {
    run = await api.createRun({ scenario: 'happy-path', seed: 7 })
    run = await api.waitComplete(run.id)
  })
  afterAll(cleanup)

  it('[api] answers health', async () => {
    expect(await api.json('/api/health')).toEqual({ status: 200, body: { status: 'ok' } })
  })

  it('[api] the scaffold demo route is gone (runs replace it)', async () => {
    expect((await api.json('/api/demo')).status).toBe(404)
  })

  it('[api] lists every scenario preset with its narrative, wrapped', async () => {
    const { status, body } = await api.json('/api/scenarios')
    expect(status).toBe(200)
    expect(body.scenarios.map((s: { name: string }) => s.name)).toEqual([...SCENARIO_NAMES])
    for (const s of body.scenarios) expect(s.narrative.length).toBeGreaterThan(20)
  })

  it('[api] a finished run is complete with its events, checkpoints and invariants', async () => {
    expect(run).toMatchObject({
      scenario: 'happy-path',
      seed: '7',
      rollouts: 9,
      status: 'complete',
      outcome: 'completed',
    })
    expect(run.events).toBeGreaterThan(10)
    expect(run.checkpoints.length).toBeGreaterThan(0)
    // Named relative to the data directory: the server's own paths never reach a client.
    for (const path of run.checkpoints)
      expect(path).toMatch(new RegExp(`^runs/${run.id}/checkpoints/[^/]+$`))
    expect(Object.values(run.invariants).every((v) => v === 'pass')).toBe(true)
    expect((await api.json(`/api/runs/${run.id}`)).body).toEqual(run)
    expect((await api.json('/api/runs')).body).toEqual({ runs: [run] })
  })

  it('[api] the event log is the whole trace numbered from 1', async () => {
    const { body } = await api.json(`/api/runs/${run.id}/events`)
    expect(body.events.length).toBe(run.events)
    expect(body.events.map((e: { step: number }) => e.step)).toEqual(
      Array.from({ length: run.events }, (_, i) => i + 1),
    )
  })

  it('[api] a step view carries participants, invariants and the diagram window with the step highlighted (the session rows are their own view)', async () => {
    const n = Math.floor(run.events / 2)
    const { status, body } = (await api.json(`/api/runs/${run.id}/steps/${n}?window=20`)) as {
      status: number
      body: StepView
    }
    expect(status).toBe(200)
    expect(body).toMatchObject({ step: n, total: run.events })
    expect(body.event?.step).toBe(n)
    expect(body.window.to - body.window.from + 1).toBe(20)
    expect(body.window.from <= n && n <= body.window.to).toBe(true)
    expect(body.mermaid.startsWith('sequenceDiagram')).toBe(true)
    expect(body.mermaid).toContain('▶')
    // the same diagram for a client that draws its own highlight: no marker, the step's message
    // index
    expect(body.diagram.source).not.toContain('▶')
    expect(body.diagram.steps[body.diagram.highlight]).toBe(n)
    expect(body.participants.length).toBeGreaterThan(0)
    // each card carries its first tombstones (at most 20) and their count
    for (const p of body.participants)
      expect(p.tombstones.length).toBe(Math.min(p.tombstone_count, 20))
    const end = (await api.json(`/api/runs/${run.id}/steps/${run.events}`)).body as StepView
    expect(end.participants.some((p) => p.tombstone_count > 0)).toBe(true)
    expect(Object.keys(body.invariants).length).toBe(INVARIANT_IDS.length)
    const zero = (await api.json(`/api/runs/${run.id}/steps/0`)).body as StepView
    expect(zero.event).toBeNull()
    const collapsed = (
      await api.json(`/api/runs/${run.id}/steps/${run.events}?collapsed=prepare,commit`)
    ).body as StepView
    expect(collapsed.mermaid).not.toEqual(
      (await api.json(`/api/runs/${run.id}/steps/${run.events}`)).body.mermaid,
    )
  })

  it('[api] sessions, Workplace tables and lineage answer at a step', async () => {
    const session = await api.json(`/api/runs/${run.id}/sessions/r2.a0?step=${run.events}`)
    expect(session.status).toBe(200)
    expect(session.body.session).toMatchObject({
      rollout_id: 'r2',
      attempt: 0,
      environment: 'workplace',
    })
    const tables = await api.json(`/api/runs/${run.id}/sessions/r2.a0/tables?step=${run.events}`)
    expect(tables.status).toBe(200)
    expect(tables.body.tables.length).toBeGreaterThan(0)
    const notWorkplace = await api.json(`/api/runs/${run.id}/sessions/r0.a0/tables`)
    expect(notWorkplace).toMatchObject({
      status: 404,
      body: { error: { code: 'session_not_found' } },
    })
    const lineage = await api.json(`/api/runs/${run.id}/lineage?step=${run.events}`)
    expect(lineage.status).toBe(200)
    expect(lineage.body.rollouts.length).toBe(9)
  })

  it('[api] checkpoints are listed with verification and their files served', async () => {
    const { body } = await api.json(`/api/runs/${run.id}/checkpoints`)
    expect(body.checkpoints.length).toBe(run.checkpoints.length)
    const cp = body.checkpoints[0]
    expect(cp.valid).toBe(true)
    expect(cp.problems).toEqual([])
    expect(cp.files.every((f: { status: string }) => f.status === 'ok')).toBe(true)
    const response = await api.app.request(
      `/api/runs/${run.id}/checkpoints/${cp.cid}/files/checkpoint.json`,
    )
    expect(response.status).toBe(200)
    const marker = (await response.json()) as { checkpoint_id: string }
    expect(marker.checkpoint_id).toBe(cp.checkpoint_id)
    const nested = cp.files.find((f: { path: string }) => f.path.startsWith('resources/'))
    const nestedResponse = await api.app.request(
      `/api/runs/${run.id}/checkpoints/${cp.cid}/files/${nested.path}`,
    )
    expect(nestedResponse.headers.get('x-content-sha256')).toBe(nested.sha256)
  })

  it('[api] file paths that leave the checkpoint are path_escape, unknown ones file_not_found', async () => {
    const cid = (await api.json(`/api/runs/${run.id}/checkpoints`)).body.checkpoints[0].cid
    const base = `/api/runs/${run.id}/checkpoints/${cid}/files/`
    for (const path of [
      '..%2f..%2frun.json',
      '..%2F..%2F..%2F..%2Fetc%2Fpasswd',
      '%2fetc%2fpasswd',
      'resources%5c..%5c..%5crun.json',
      'a%00b',
    ]) {
      const r = await api.json(base + path)
      expect(r, path).toMatchObject({ status: 400, body: { error: { code: 'path_escape' } } })
    }
    expect(await api.json(`${base}nope.json`)).toMatchObject({
      status: 404,
      body: { error: { code: 'file_not_found' } },
    })
    expect(await api.json(`${base}resources`)).toMatchObject({
      status: 404,
      body: { error: { code: 'file_not_found' } },
    })
    expect(
      await api.json(`/api/runs/${run.id}/checkpoints/nope/files/checkpoint.json`),
    ).toMatchObject({ status: 404, body: { error: { code: 'checkpoint_not_found' } } })
  })

  it('[api] a symlink inside a checkpoint directory is refused as path_escape', async () => {
    const cp = (await api.json(`/api/runs/${run.id}/checkpoints`)).body.checkpoints[0]
    expect(cp.path).toBe(`runs/${run.id}/checkpoints/${cp.cid}`)
    const cpDir = join(dir, cp.path)
    const link = join(cpDir, 'resources', 'link.json')
    symlinkSync(join(dir, 'runs', run.id, 'run.json'), link)
    symlinkSync(join(dir, 'runs', run.id), join(cpDir, 'up'))
    try {
      expect(
        await api.json(`/api/runs/${run.id}/checkpoints/${cp.cid}/files/resources/link.json`),
      ).toMatchObject({ status: 400, body: { error: { code: 'path_escape' } } })
      expect(
        await api.json(`/api/runs/${run.id}/checkpoints/${cp.cid}/files/up/run.json`),
      ).toMatchObject({ status: 400, body: { error: { code: 'path_escape' } } })
      const listed = (await api.json(`/api/runs/${run.id}/checkpoints`)).body.checkpoints[0]
      expect(listed.valid).toBe(false)
      expect(listed.problems.map((p: { code: string }) => p.code)).toContain('symlink')
    } finally {
      unlinkSync(link)
      unlinkSync(join(cpDir, 'up'))
    }
  })

  it('[api] a checkpoint a fault damaged is listed invalid with the file that fails its digest', async () => {
    const corrupt = await api.waitComplete(
      (await api.createRun({ scenario: 'corrupt-snapshot', seed: 2 })).id,
    )
    expect(corrupt.damaged.length).toBeGreaterThan(0)
    const listed = (await api.json(`/api/runs/${corrupt.id}/checkpoints`)).body.checkpoints as {
      damaged: boolean
      valid: boolean
      files: { status: string }[]
    }[]
    const damaged = listed.filter((c) => c.damaged)
    expect(damaged.length).toBe(corrupt.damaged.length)
    for (const c of damaged) {
      expect(c.valid).toBe(false)
      expect(c.files.some((f) => f.status === 'digest_mismatch')).toBe(true)
    }
    await api.app.request(`/api/runs/${corrupt.id}`, JSON_DELETE)
  })

  it('[api] unknown runs, sessions and routes are 404 with their codes; malformed params 400', async () => {
    expect(await api.json('/api/runs/zzzzzzzzzzz')).toMatchObject({
      status: 404,
      body: { error: { code: 'run_not_found' } },
    })
    expect(await api.json('/api/runs/BAD!')).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request' } },
    })
    expect(await api.json(`/api/runs/${run.id}/sessions/r99.a0`)).toMatchObject({
      status: 404,
      body: { error: { code: 'session_not_found' } },
    })
    expect(await api.json(`/api/runs/${run.id}/sessions/r1`)).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request' } },
    })
    expect(await api.json(`/api/runs/${run.id}/steps/${run.events + 1}`)).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request' } },
    })
    expect(await api.json(`/api/runs/${run.id}/steps/-1`)).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request' } },
    })
    expect(await api.json(`/api/runs/${run.id}/steps/1?window=0`)).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request' } },
    })
    expect(await api.json(`/api/runs/${run.id}/steps/1?collapsed=nope`)).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request' } },
    })
    expect(await api.json(`/api/runs/${run.id}/lineage?step=x`)).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request' } },
    })
    expect(await api.json(`/api/runs/${run.id}/lineage?extra=1`)).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request' } },
    })
    expect(await api.json('/api/nope')).toEqual({
      status: 404,
      body: {
        error: {
          code: 'not_found',
          message: 'no route GET /api/nope',
          detail: 'no route GET /api/nope',
        },
      },
    })
  })

  it('[api] bad run configs of every kind are refused with their code and change nothing', async () => {
    const before = (await api.json('/api/runs')).body
    const cases: [string, number, string, string?][] = [
      ['{"scenario":', 400, 'malformed_json'],
      ['not json', 400, 'malformed_json'],
      ['', 400, 'invalid_request'],
      ['[]', 400, 'invalid_request'],
      ['{}', 400, 'invalid_request'],
      ['{"scenario":"no-such-scenario"}', 404, 'scenario_not_found'],
      ['{"scenario":42}', 400, 'invalid_request'],
      ['{"scenario":"happy-path","seed":-1}', 400, 'invalid_request'],
      ['{"scenario":"happy-path","seed":"12a"}', 400, 'invalid_request'],
      ['{"scenario":"happy-path","seed":1.5}', 400, 'invalid_request'],
      ['{"scenario":"happy-path","rollouts":0}', 400, 'invalid_request'],
      [
        `{"scenario":"happy-path","rollouts":${MAX_ROLLOUTS + 1}}`,
        400,
        'invalid_request',
        String(MAX_ROLLOUTS),
      ],
      ['{"scenario":"happy-path","rollouts":"9"}', 400, 'invalid_request'],
      ['{"scenario":"happy-path","extra":true}', 400, 'invalid_request', 'extra'],
      ['{"scenario":"happy-path","faults":[{"kind":"meteor"}]}', 400, 'invalid_request'],
      [
        '{"scenario":"happy-path","faults":[{"kind":"straggler","rollout":1,"extra_ms":5,"x":1}]}',
        400,
        'invalid_request',
      ],
      [
        JSON.stringify({ scenario: 'happy-path', pad: 'x'.repeat(API_BODY_LIMIT) }),
        413,
        'payload_too_large',
        String(API_BODY_LIMIT),
      ],
    ]
    for (const [body, status, code, inMessage] of cases) {
      const r = await api.json('/api/runs', post(body))
      expect(r.status, body.slice(0, 80)).toBe(status)
      expect(r.body.error.code, body.slice(0, 80)).toBe(code)
      if (inMessage !== undefined) expect(r.body.error.message).toContain(inMessage)
    }
    expect((await api.json('/api/runs')).body).toEqual(before)
    expect(readdirSync(join(dir, 'runs'))).toEqual([run.id])
  })

  it('[api] deleting a run removes it and its folder; unknown ids are run_not_found', async () => {
    const extra = await api.createRun({ scenario: 'happy-path', rollouts: 2 })
    await api.waitComplete(extra.id)
    expect((await api.app.request(`/api/runs/${extra.id}`, JSON_DELETE)).status).toBe(204)
    expect(existsSync(join(dir, 'runs', extra.id))).toBe(false)
    expect(await api.json(`/api/runs/${extra.id}`)).toMatchObject({
      status: 404,
      body: { error: { code: 'run_not_found' } },
    })
    expect(await api.json(`/api/runs/${extra.id}`, JSON_DELETE)).toMatchObject({
      status: 404,
      body: { error: { code: 'run_not_found' } },
    })
  })

  it('[api] deleting a running run stops it before it writes anything more', async () => {
    const live = await api.createRun({ scenario: 'happy-path', rollouts: 30 })
    expect((await api.app.request(`/api/runs/${live.id}`, JSON_DELETE)).status).toBe(204)
    await api.runs.idle()
    expect(existsSync(join(dir, 'runs', live.id))).toBe(false)
    expect((await api.json('/api/runs')).body.runs.map((r: RunView) => r.id)).toEqual([run.id])
  })

  it('[api] run ids are short, sortable and unique', async () => {
    const a = await api.createRun({ scenario: 'happy-path', rollouts: 1 })
    const b = await api.createRun({ scenario: 'happy-path', rollouts: 1 })
    await api.runs.idle()
    expect(a.id).toMatch(/^[0-9a-z]{11}$/)
    expect(a.id < b.id).toBe(true)
    expect((await api.json('/api/runs')).body.runs.map((r: RunView) => r.id).slice(0, 2)).toEqual([
      b.id,
      a.id,
    ])
    for (const id of [a.id, b.id]) await api.app.request(`/api/runs/${id}`, JSON_DELETE)
  })
})

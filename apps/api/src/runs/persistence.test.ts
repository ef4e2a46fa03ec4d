import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { RunView } from '@cutover/core/contracts'
import { JSON_DELETE, apiHarness, tempDataDir } from '../testing/apiHarness.ts'

/** Every file under `root` with its bytes and mtime, to prove a restart rewrote nothing. */
function fingerprint(root: string): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else
        out.set(
          relative(root, path),
          `${statSync(path).mtimeMs}:${readFileSync(path).toString('base64')}`,
        )
    }
  }
  walk(root)
  return out
}

describe('run persistence', () => {
  const { dir, cleanup } = tempDataDir()
  afterAll(cleanup)

  it('[persist] a restarted server lists and serves the same runs without rewriting their directories', async () => {
    const first = apiHarness(dir)
    const created = await first.createRun({ scenario: 'straggler-retirement', seed: 3 })
    const run = await first.waitComplete(created.id)
    const step = Math.floor(run.events / 2)
    const before = {
      step: (await first.json(`/api/runs/${run.id}/steps/${step}`)).body,
      lineage: (await first.json(`/api/runs/${run.id}/lineage`)).body,
      checkpoints: (await first.json(`/api/runs/${run.id}/checkpoints`)).body,
      events: (await first.json(`/api/runs/${run.id}/events`)).body,
    }
    const files = fingerprint(join(dir, 'runs', run.id))

    const second = apiHarness(dir)
    expect((await second.json('/api/runs')).body).toEqual({ runs: [run] })
    expect((await second.json(`/api/runs/${run.id}/events`)).body).toEqual(before.events)
    expect((await second.json(`/api/runs/${run.id}/steps/${step}`)).body).toEqual(before.step)
    expect((await second.json(`/api/runs/${run.id}/lineage`)).body).toEqual(before.lineage)
    expect((await second.json(`/api/runs/${run.id}/checkpoints`)).body).toEqual(before.checkpoints)
    await second.runs.idle()
    expect(fingerprint(join(dir, 'runs', run.id))).toEqual(files)
  })

  it('[persist] a run left running by a dead server is listed as failed with a message, never complete', async () => {
    const orphan: RunView = {
      id: '00000000zz0',
      kind: 'simulated',
      scenario: 'happy-path',
      seed: '1',
      rollouts: 9,
      deadline_ms: 100,
      faults: [],
      inert_faults: [],
      status: 'running',
      created_at: '2026-01-01T00:00:00.000Z',
      events: 0,
      outcome: null,
      checkpoints: [],
      damaged: [],
      invariants: {
        'manifest-last': 'pass',
        'fenced-attempt-silent': 'pass',
        'revision-monotonic': 'pass',
        'restore-all-or-nothing': 'pass',
        'resume-order': 'pass',
        'relay-once': 'pass',
        'call-id-unique': 'pass',
        'acks-before-prepare': 'pass',
        'token-partition': 'pass',
        'durable-before-ack': 'pass',
        'egress-fenced': 'pass',
        equivalence: 'pass',
      },
      failures: [],
    }
    mkdirSync(join(dir, 'runs', orphan.id), { recursive: true })
    writeFileSync(join(dir, 'runs', orphan.id, 'run.json'), JSON.stringify(orphan))
    const api = apiHarness(dir)
    const listed = (await api.json(`/api/runs/${orphan.id}`)).body as RunView
    expect(listed.status).toBe('failed')
    expect(listed.error).toMatch(/stopped before this run completed/)
    expect(JSON.parse(readFileSync(join(dir, 'runs', orphan.id, 'run.json'), 'utf8')).status).toBe(
      'failed',
    )
    expect(await api.json(`/api/runs/${orphan.id}/steps/0`)).toMatchObject({
      status: 409,
      body: { error: { code: 'invalid_phase' } },
    })
    await api.app.request(`/api/runs/${orphan.id}`, JSON_DELETE)
  })

  it('[persist] a run stored before call-id-unique and inert_faults existed is still listed (the new invariant reads pass, no inert faults)', async () => {
    const old = {
      id: '00000000zz1',
      scenario: 'happy-path',
      seed: '1',
      rollouts: 9,
      deadline_ms: 100,
      faults: [],
      status: 'failed',
      error: 'old',
      created_at: '2026-01-01T00:00:00.000Z',
      events: 0,
      outcome: null,
      checkpoints: [],
      damaged: [],
      invariants: {
        'manifest-last': 'pass',
        'fenced-attempt-silent': 'pass',
        'revision-monotonic': 'pass',
        'restore-all-or-nothing': 'pass',
        'resume-order': 'pass',
        'relay-once': 'pass',
        equivalence: 'pass',
      },
      failures: [],
    }
    mkdirSync(join(dir, 'runs', old.id), { recursive: true })
    writeFileSync(join(dir, 'runs', old.id, 'run.json'), JSON.stringify(old))
    const api = apiHarness(dir)
    const listed = (await api.json(`/api/runs/${old.id}`)).body as RunView
    expect(listed.invariants['call-id-unique']).toBe('pass')
    expect(listed.inert_faults).toEqual([])
    await api.app.request(`/api/runs/${old.id}`, JSON_DELETE)
  })

  it('[persist] a stored trace that the deterministic re-run does not reproduce is reported, not served', async () => {
    const api = apiHarness(dir)
    const run = (await api.json('/api/runs')).body.runs[0] as RunView
    const tracePath = join(dir, 'runs', run.id, 'trace.json')
    const original = readFileSync(tracePath, 'utf8')
    const events = JSON.parse(original) as { time_ms: number }[]
    if (events[3]) events[3].time_ms += 1
    writeFileSync(tracePath, JSON.stringify(events))
    try {
      const reloaded = apiHarness(dir)
      const r = await reloaded.json(`/api/runs/${run.id}/steps/1`)
      expect([r.status, r.body.error.code]).toEqual([409, 'run_diverged'])
      expect(r.body.error.message).toMatch(/diverged from its stored trace at step 4/)
    } finally {
      writeFileSync(tracePath, original)
    }
  })

  it('[api.run-digest] [persist] a run folder whose run.json does not parse is listed as damaged with why, never served half-read', async () => {
    mkdirSync(join(dir, 'runs', 'broken'), { recursive: true })
    writeFileSync(join(dir, 'runs', 'broken', 'run.json'), '{"id":')
    const api = apiHarness(dir)
    const listed = (await api.json('/api/runs')).body.runs.find((r: RunView) => r.id === 'broken')
    expect(listed).toMatchObject({ id: 'broken', status: 'damaged' })
    expect(listed.error).toMatch(/run\.json is not JSON/)
    expect(await api.json('/api/runs/broken/steps/0')).toMatchObject({
      status: 409,
      body: { error: { code: 'run_damaged' } },
    })
    expect((await api.app.request('/api/runs/broken', JSON_DELETE)).status).toBe(204)
  })

  it('[api.run-digest] run.json carries its digest: a byte flipped inside a key or a value lists the run as damaged, and no view, event or checkpoint of it is served', async () => {
    const first = apiHarness(dir)
    const created = await first.createRun({ scenario: 'happy-path', seed: 11, rollouts: 3 })
    const run = await first.waitComplete(created.id)
    await first.runs.idle()
    const file = join(dir, 'runs', run.id, 'run.json')
    const whole = readFileSync(file, 'utf8')
    expect(JSON.parse(whole).sha256).toMatch(/^[0-9a-f]{64}$/)
    // One byte inside a key the schema would drop silently, one inside a key it needs, one in a
    // value, one in the digest itself.
    for (const [from, to] of [
      ['"inert_faults"', '"inert_faultz"'],
      ['"scenario"', '"scenarjo"'],
      ['"rollouts": 3', '"rollouts": 4'],
      ['"sha256": "', '"sha256": "0'],
      ['"sha256"', '"sha257"'],
    ] as const) {
      expect(whole).toContain(from)
      writeFileSync(file, whole.replace(from, to))
      const api = apiHarness(dir)
      const listed = (await api.json(`/api/runs/${run.id}`)).body as RunView
      expect([from, listed.status]).toEqual([from, 'damaged'])
      expect(listed.error).toMatch(/sha256|unknown keys|run\.json/)
      for (const path of [
        `/api/runs/${run.id}/steps/1`,
        `/api/runs/${run.id}/events`,
        `/api/runs/${run.id}/summary`,
        `/api/runs/${run.id}/lineage`,
        `/api/runs/${run.id}/checkpoints`,
      ]) {
        const r = await api.json(path)
        expect([from, path, r.status, r.body.error?.code]).toEqual([from, path, 409, 'run_damaged'])
      }
      expect((await api.json('/api/runs')).body.runs.map((r: RunView) => r.status)).toContain(
        'damaged',
      )
    }
    writeFileSync(file, whole)
    const restored = apiHarness(dir)
    expect((await restored.json(`/api/runs/${run.id}`)).body.status).toBe('complete')
    await restored.app.request(`/api/runs/${run.id}`, JSON_DELETE)
  })
})

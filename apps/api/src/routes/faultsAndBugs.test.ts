import { afterAll, describe, expect, it } from 'vitest'
import { BUG_NAMES } from '@cutover/core/contracts'
import { apiHarness, tempDataDir } from '../testing/apiHarness.ts'

const post = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

describe('faults are checked and bugs are selectable (API)', () => {
  const { dir, cleanup } = tempDataDir()
  const api = apiHarness(dir)
  afterAll(cleanup)

  it('[faults] a fault naming a rollout the run does not have is 400 invalid_request naming the valid form', async () => {
    const r = await api.json(
      '/api/runs',
      post({
        scenario: 'happy-path',
        rollouts: 90,
        faults: [{ kind: 'straggler', rollout: 'r7', extra_ms: 400 }],
      }),
    )
    expect(r.status).toBe(400)
    expect(r.body.error.code).toBe('invalid_request')
    expect(r.body.error.message).toContain('"r00"…"r89"')
    expect((await api.json('/api/runs')).body.runs).toEqual([])
  })

  it('[faults] a fault naming a worker the run does not have is refused', async () => {
    const r = await api.json(
      '/api/runs',
      post({ scenario: 'happy-path', faults: [{ kind: 'missing_worker', worker: 7 }] }),
    )
    expect(r.status).toBe(400)
    expect(r.body.error.message).toMatch(/worker 7/)
  })

  it('[faults] a fault that never fires is listed in inert_faults with its reason', async () => {
    const created = await api.createRun({
      scenario: 'happy-path',
      faults: [{ kind: 'crash_after_write', k: 5000 }],
    })
    expect(created.inert_faults).toEqual([])
    const run = await api.waitComplete(created.id)
    expect(run.inert_faults).toHaveLength(1)
    expect(run.inert_faults[0]).toMatchObject({ fault: { kind: 'crash_after_write', k: 5000 } })
    expect(run.inert_faults[0]?.reason).toMatch(/^this fault had no effect/)
    expect((await api.json(`/api/runs/${run.id}`)).body.inert_faults).toEqual(run.inert_faults)
  })

  it('[bugs] GET /api/bugs lists the catalogue with name, narrative and invariant, and the scenarios that show a bug only some do', async () => {
    const r = await api.json('/api/bugs')
    expect(r.status).toBe(200)
    expect(r.body.bugs.map((b: { name: string }) => b.name)).toEqual([...BUG_NAMES])
    for (const b of r.body.bugs)
      expect(
        Object.keys(b)
          .filter((k) => k !== 'scenarios')
          .sort(),
      ).toEqual(['invariant', 'name', 'narrative'])
    expect(
      r.body.bugs.find((b: { name: string }) => b.name === 'egress-unfenced')?.scenarios,
    ).toEqual(['completed-before-egress'])
  })

  it('[bugs] a run with a bug fails the bug’s invariant; an unknown bug is refused', async () => {
    const run = await api.waitComplete(
      (await api.createRun({ scenario: 'happy-path', bug: 'call-ids-reused' })).id,
    )
    expect(run.bug).toBe('call-ids-reused')
    expect(run.invariants['call-id-unique']).toBe('fail')
    expect(run.failures.find((f) => f.id === 'call-id-unique')?.step).toBeGreaterThan(0)
    expect(
      (await api.json('/api/runs', post({ scenario: 'happy-path', bug: 'nope' }))).status,
    ).toBe(400)
  })
})

describe('number fields: one rule and wording for the form, the CLI and the API', () => {
  const { dir, cleanup } = tempDataDir()
  const api = apiHarness(dir)
  afterAll(cleanup)

  it('[numbers] rollouts 1.5 or 0 and a non-integer deadline are refused with the shared wording', async () => {
    for (const body of [{ rollouts: 1.5 }, { rollouts: 0 }, { rollouts: '9' }]) {
      const r = await api.json('/api/runs', post({ scenario: 'happy-path', ...body }))
      expect(r.status).toBe(400)
      expect(r.body.error.message).toBe(
        'invalid run config: rollouts: takes an integer from 1 to 10000',
      )
    }
    expect(
      (await api.json('/api/runs', post({ scenario: 'happy-path', deadline_ms: 2.5 }))).body.error
        .message,
    ).toBe('invalid run config: deadline_ms: takes an integer from 0 to 3600000')
  })

  it('[numbers] a 5,000-digit seed is a seed (any size, docs/protocol.md §12.1)', async () => {
    const seed = '7'.repeat(5000)
    const run = await api.waitComplete(
      (await api.createRun({ scenario: 'happy-path', seed, rollouts: 2 })).id,
    )
    expect(run.seed).toBe(seed)
    expect(run.status).toBe('complete')
  })
})

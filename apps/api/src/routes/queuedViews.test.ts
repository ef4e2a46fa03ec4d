import { afterAll, describe, expect, it } from 'vitest'
import { apiHarness, tempDataDir } from '../testing/apiHarness.ts'

describe('views of a run that has not started', () => {
  const { dir, cleanup } = tempDataDir()
  afterAll(cleanup)

  it('[api.view-never-waits] the step, sessions, session, lineage and diff views of a queued run answer at once with 409 run_not_started; once it ran they answer', async () => {
    const api = apiHarness(dir, {
      limits: { simulations: 1, queued: 4, runs: 10, streamsPerRun: 4 },
    })
    // The only simulation slot is held elsewhere (a long run): the next run queues behind it.
    const held = api.runs.slots.reserve()
    expect(held).toBeDefined()
    const queued = await api.createRun({ scenario: 'happy-path', rollouts: 3 })
    expect(queued.queue_position).toBe(1)
    for (const path of [
      `/api/runs/${queued.id}/steps/0`,
      `/api/runs/${queued.id}/steps/3`,
      `/api/runs/${queued.id}/sessions`,
      `/api/runs/${queued.id}/sessions?offset=0&limit=10`,
      `/api/runs/${queued.id}/sessions/r0.a0`,
      `/api/runs/${queued.id}/lineage`,
      `/api/diff?a=${queued.id}&b=${queued.id}`,
    ]) {
      const r = await api.json(path)
      expect([path, r.status, r.body.error?.code]).toEqual([path, 409, 'run_not_started'])
      expect(r.body.error.message).toContain('queued')
    }
    // The run itself and its events so far answer meanwhile.
    expect((await api.json(`/api/runs/${queued.id}`)).body.queue_position).toBe(1)
    held?.release()
    await api.waitComplete(queued.id)
    expect((await api.json(`/api/runs/${queued.id}/steps/3`)).status).toBe(200)
    expect((await api.json(`/api/runs/${queued.id}/lineage`)).status).toBe(200)
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunDiffView, RunView } from '@cutover/core/contracts'
import { apiHarness, tempDataDir } from '../testing/apiHarness.ts'

const data = tempDataDir()
let api: ReturnType<typeof apiHarness>
let happy: RunView
let happyAgain: RunView
let straggler: RunView

beforeAll(async () => {
  api = apiHarness(data.dir)
  happy = await api.createRun({ scenario: 'happy-path', seed: 5, rollouts: 6 })
  happyAgain = await api.createRun({ scenario: 'happy-path', seed: 5, rollouts: 6 })
  straggler = await api.createRun({ scenario: 'straggler-retirement', seed: 5, rollouts: 6 })
  await api.runs.idle()
})

afterAll(() => data.cleanup())

describe('GET /api/diff', () => {
  it('[diff] the same scenario and seed twice: identical', async () => {
    const r = await api.json(`/api/diff?a=${happy.id}&b=${happyAgain.id}`)
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({
      identical: true,
      first_divergence: null,
      differences: 0,
      at_divergence: null,
      listed: [],
    })
  })

  it('[diff] happy-path vs straggler-retirement: stops at the first divergent event, with the state differences there', async () => {
    const r = await api.json(`/api/diff?a=${happy.id}&b=${straggler.id}`)
    expect(r.status).toBe(200)
    const view = r.body as RunDiffView
    expect(view.identical).toBe(false)
    expect(view.differences).toBeGreaterThan(0)
    expect(view.run_a.id).toBe(happy.id)
    const first = view.first_divergence
    expect(first).not.toBeNull()
    // every event before the divergence is the same in both runs
    const [ea, eb] = await Promise.all([
      api.json(`/api/runs/${happy.id}/events`),
      api.json(`/api/runs/${straggler.id}/events`),
    ])
    const strip = (e: { step: number; time_ms: number }) => ({ ...e, step: 0, time_ms: 0 })
    expect(ea.body.events.slice(0, (first?.step_a ?? 1) - 1).map(strip)).toEqual(
      eb.body.events.slice(0, (first?.step_b ?? 1) - 1).map(strip),
    )
    expect(view.listed[0]).toMatchObject({ step_a: first?.step_a, step_b: first?.step_b })
    expect(view.at_divergence).not.toBeNull()
  })

  it('[diff] bad input: unknown runs 404, malformed or missing ids 400', async () => {
    const unknown = await api.json(`/api/diff?a=${happy.id}&b=zzzzzzzzzzz`)
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'run_not_found'])
    expect(unknown.body.error.message).toContain('zzzzzzzzzzz')
    for (const query of [`a=${happy.id}`, 'a=BAD!&b=x', `a=${happy.id}&b=${happy.id}&c=1`, '']) {
      const r = await api.json(`/api/diff?${query}`)
      expect([query, r.status, r.body.error.code]).toEqual([query, 400, 'invalid_request'])
    }
  })
})

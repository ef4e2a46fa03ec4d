import { afterAll, describe, expect, it } from 'vitest'
import type { SimulatorPort } from './SimulatorPort.ts'
import { apiHarness, tempDataDir, testDeps } from '../testing/apiHarness.ts'

describe('run manager', () => {
  const { dir, cleanup } = tempDataDir()
  afterAll(cleanup)

  it('[runs] finished simulations beyond the cache are re-simulated on demand and answer the same', async () => {
    const real = testDeps(dir).simulator
    let simulations = 0
    const counting: SimulatorPort = { ...real, simulate: (config, deps) => (simulations++, real.simulate(config, deps)) }
    const api = apiHarness(dir, { simulator: counting, cachedResults: 1 })
    const a = await api.waitComplete((await api.createRun({ scenario: 'happy-path', rollouts: 2 })).id)
    const firstView = (await api.json(`/api/runs/${a.id}/steps/3`)).body
    expect(simulations).toBe(1)
    await api.waitComplete((await api.createRun({ scenario: 'happy-path', rollouts: 2, seed: 1 })).id)
    expect(simulations).toBe(2)
    // Run a was evicted by run b: its view comes from a deterministic re-run, identical.
    expect((await api.json(`/api/runs/${a.id}/steps/3`)).body).toEqual(firstView)
    expect(simulations).toBe(3)
    expect((await api.json(`/api/runs/${a.id}/steps/4`)).status).toBe(200)
    expect(simulations).toBe(3)
  })
})

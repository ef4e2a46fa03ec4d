import { afterAll, describe, expect, it } from 'vitest'
import type { SimulatorPort } from './SimulatorPort.ts'
import { apiHarness, tempDataDir, testDeps } from '../testing/apiHarness.ts'

describe('run manager', () => {
  const { dir, cleanup } = tempDataDir()
  afterAll(cleanup)

  it('[runs] finished simulations beyond the cache are re-simulated on demand and answer the same', async () => {
    const real = testDeps(dir).simulator
    let simulations = 0
    const counting: SimulatorPort = {
      ...real,
      simulate: (config, deps) => (simulations++, real.simulate(config, deps)),
    }
    const api = apiHarness(dir, { simulator: counting, cachedResults: 1 })
    const a = await api.waitComplete(
      (await api.createRun({ scenario: 'happy-path', rollouts: 2 })).id,
    )
    const firstView = (await api.json(`/api/runs/${a.id}/steps/3`)).body
    expect(simulations).toBe(1)
    await api.waitComplete(
      (await api.createRun({ scenario: 'happy-path', rollouts: 2, seed: 1 })).id,
    )
    expect(simulations).toBe(2)
    // Run a was evicted by run b: its view comes from a deterministic re-run, identical.
    expect((await api.json(`/api/runs/${a.id}/steps/3`)).body).toEqual(firstView)
    expect(simulations).toBe(3)
    expect((await api.json(`/api/runs/${a.id}/steps/4`)).status).toBe(200)
    expect(simulations).toBe(3)
  })
})

describe('run manager failures', () => {
  it('[security] a simulation that fails with a file system error names no absolute path in the run or the answer', async () => {
    const { dir, cleanup } = tempDataDir()
    try {
      const real = testDeps(dir).simulator
      const failing: SimulatorPort = {
        ...real,
        simulate: (config, deps) => {
          const inner = real.simulate(config, deps)
          return (function* () {
            yield inner.next().value as never
            throw new Error(
              `EACCES: permission denied, open '${dir}/runs/x/checkpoints/ck-1/checkpoint.json'`,
            )
          })()
        },
      }
      const api = apiHarness(dir, { simulator: failing })
      const run = await api.waitComplete(
        (await api.createRun({ scenario: 'happy-path', rollouts: 2 })).id,
      )
      expect(run.status).toBe('failed')
      expect(run.error).toContain("open 'runs/x/checkpoints/ck-1/checkpoint.json'")
      const step = await api.json(`/api/runs/${run.id}/steps/1`)
      expect(step.status).toBe(409)
      for (const text of [
        JSON.stringify(run),
        JSON.stringify(step.body),
        JSON.stringify((await api.json('/api/runs')).body),
      ])
        expect(text).not.toContain(dir)
    } finally {
      cleanup()
    }
  })
})

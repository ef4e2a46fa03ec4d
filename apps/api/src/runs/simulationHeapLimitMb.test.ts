import { describe, expect, it } from 'vitest'
import { apiHarness, tempDataDir } from '../testing/apiHarness.ts'
import { simulationHeapLimitMb } from './simulationHeapLimitMb.ts'

describe('the heap budget of a simulation worker', () => {
  it('[bounded] the budget grows with the run: a fixed floor for small runs, the measured live set times the headroom for large ones', () => {
    expect(simulationHeapLimitMb(1)).toBe(simulationHeapLimitMb(1000))
    expect(simulationHeapLimitMb(10_000)).toBeGreaterThan(simulationHeapLimitMb(1000))
    // 10,000 rollouts: 416 MB live measured; the budget keeps its headroom above that.
    expect(simulationHeapLimitMb(10_000)).toBeGreaterThanOrEqual(Math.round(1.7 * 416))
  })

  // Slow by nature (a whole 10,000-rollout run on the real file system in a worker thread); the
  // timeout only bounds a hung run, nothing here measures time.
  it('[bounded] a 10,000-rollout run through POST /api/runs completes inside its heap budget', async () => {
    const { dir, cleanup } = tempDataDir()
    try {
      const api = apiHarness(dir)
      const created = await api.createRun({ scenario: 'happy-path', rollouts: 10_000 })
      const run = await api.waitComplete(created.id)
      expect(run.error).toBeUndefined()
      expect(run.status).toBe('complete')
      expect(run.outcome).toBe('completed')
      expect(run.rollouts).toBe(10_000)
      expect(run.failures).toEqual([])
    } finally {
      cleanup()
    }
  }, 600_000)
})

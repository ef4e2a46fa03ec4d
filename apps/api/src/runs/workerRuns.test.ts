import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { JSON_DELETE, apiHarness, tempDataDir, testDeps } from '../testing/apiHarness.ts'
import type { SimulationWorkerFactory } from './startWorkerSimulation.ts'
import { startWorkerSimulation } from './startWorkerSimulation.ts'

describe('runs simulated in worker threads', () => {
  it('[workers] a fresh run streams, answers live views, and finishes with the same trace and views as an in-thread run', async () => {
    const { dir, cleanup } = tempDataDir()
    try {
      const workers = apiHarness(dir)
      const body = { scenario: 'happy-path', rollouts: 3 }
      const created = await workers.createRun(body)
      // Views of a running run answer through its worker (or wait for it to start), never 500.
      const early = await workers.json(`/api/runs/${created.id}/lineage`)
      expect(early.status).toBe(200)
      const run = await workers.waitComplete(created.id)
      expect(run.status).toBe('complete')
      const { dir: other, cleanup: cleanupOther } = tempDataDir()
      try {
        const inThread = apiHarness(other, { simulator: testDeps(other).simulator })
        const reference = await inThread.waitComplete((await inThread.createRun(body)).id)
        expect({ ...run, id: '', created_at: '' }).toEqual({ ...reference, id: '', created_at: '' })
        // trace.json byte for byte.
        expect(readFileSync(join(dir, 'runs', run.id, 'trace.json'), 'utf8')).toBe(
          readFileSync(join(other, 'runs', reference.id, 'trace.json'), 'utf8'),
        )
        for (const path of [
          'steps/7',
          'lineage?step=20',
          `steps/${run.events}`,
          'sessions?step=7',
          'sessions',
        ]) {
          const a = await workers.json(`/api/runs/${run.id}/${path}`)
          expect(a.status).toBe(200)
          expect(a.body).toEqual((await inThread.json(`/api/runs/${reference.id}/${path}`)).body)
        }
      } finally {
        cleanupOther()
      }
    } finally {
      cleanup()
    }
  })

  it('[workers] a worker that dies fails its run with a coded error; the server keeps serving', async () => {
    const { dir, cleanup } = tempDataDir()
    try {
      const dying: SimulationWorkerFactory = (config, runId, onEvents) =>
        startWorkerSimulation(
          { config, dataDir: dir, runId },
          onEvents,
          new URL('data:text/javascript,process.exit(3)'),
        )
      const api = apiHarness(dir, { simulationWorkers: dying })
      const run = await api.waitComplete(
        (await api.createRun({ scenario: 'happy-path', rollouts: 2 })).id,
      )
      expect(run.status).toBe('failed')
      expect(run.error).toContain('simulation worker exited (code 3)')
      const step = await api.json(`/api/runs/${run.id}/steps/1`)
      expect(step.status).toBe(409)
      expect(step.body.error.code).toBe('invalid_phase')
      expect((await api.json('/api/health')).status).toBe(200)
    } finally {
      cleanup()
    }
  })

  it('[workers] deleting a running run stops its worker and leaves no folder behind', async () => {
    const { dir, cleanup } = tempDataDir()
    try {
      const api = apiHarness(dir)
      const run = await api.createRun({ scenario: 'happy-path', rollouts: 200 })
      for (let i = 0; i < 200 && (await api.json(`/api/runs/${run.id}`)).body.events === 0; i += 1)
        await new Promise((r) => setTimeout(r, 20))
      expect((await api.json(`/api/runs/${run.id}`, JSON_DELETE)).status).toBeLessThan(300)
      await api.runs.idle()
      await new Promise((r) => setTimeout(r, 200))
      expect(existsSync(join(dir, 'runs', run.id))).toBe(false)
      expect((await api.json(`/api/runs/${run.id}`)).status).toBe(404)
      expect(api.runs.slots.running()).toBe(0)
    } finally {
      cleanup()
    }
  })

  it('[workers] a view asked of a finished run whose worker leaves the result cache mid-request answers from a re-simulation', async () => {
    const { dir, cleanup } = tempDataDir()
    try {
      const api = apiHarness(dir, { cachedResults: 1 })
      const a = await api.waitComplete(
        (await api.createRun({ scenario: 'happy-path', rollouts: 2 })).id,
      )
      const views = await api.runs.views(a.id)
      if (!views.ok) throw new Error(views.error.message)
      const before = await views.value.lineage(5)
      // Run b finishing evicts run a: its worker is terminated while `views` is still held.
      await api.waitComplete(
        (await api.createRun({ scenario: 'happy-path', rollouts: 2, seed: 1 })).id,
      )
      expect(await views.value.lineage(5)).toEqual(before)
    } finally {
      cleanup()
    }
  })

  it('[workers] a reloaded finished run re-simulates for its views in a worker thread, not on the server thread, and answers the same', async () => {
    const { dir, cleanup } = tempDataDir()
    try {
      const first = apiHarness(dir)
      const run = await first.waitComplete(
        (await first.createRun({ scenario: 'happy-path', rollouts: 3 })).id,
      )
      const paths = [
        'steps/9',
        `sessions/${(await first.json(`/api/runs/${run.id}/sessions`)).body.sessions[0].key}?step=${run.events}`,
        'sessions?step=9',
        'lineage?step=20',
      ]
      const expected = await Promise.all(
        paths.map(async (path) => (await first.json(`/api/runs/${run.id}/${path}`)).body),
      )
      const started: boolean[] = []
      const { simulationWorkers } = testDeps(dir)
      if (simulationWorkers === undefined) throw new Error('the node deps start workers')
      const counting: SimulationWorkerFactory = (config, runId, onEvents, replay) => {
        started.push(replay === true)
        return simulationWorkers(config, runId, onEvents, replay)
      }
      const reloaded = apiHarness(dir, { simulationWorkers: counting })
      for (const [i, path] of paths.entries()) {
        const r = await reloaded.json(`/api/runs/${run.id}/${path}`)
        expect(r.status).toBe(200)
        expect(r.body).toEqual(expected[i])
      }
      // One replay worker answered every view (a re-simulation on this thread would start none).
      expect(started).toEqual([true])
    } finally {
      cleanup()
    }
  })
})

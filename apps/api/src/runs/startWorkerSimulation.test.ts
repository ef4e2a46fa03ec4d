import type { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { resolveRunConfig, simulate } from '@cutover/core'
import { loadNodeWorkplaceData, nodeDigest } from '@cutover/core/adapters'
import { MemoryCheckpointDirectory } from '@cutover/core/testing'
import type { TraceEvent } from '@cutover/core/contracts'
import { tempDataDir } from '../testing/apiHarness.ts'
import { simulationHeapLimitMb } from './simulationHeapLimitMb.ts'
import { spareSimulationWorker } from './SpareSimulationWorker.ts'
import { startWorkerSimulation } from './startWorkerSimulation.ts'

describe('startWorkerSimulation', () => {
  it('streams the same events the in-thread simulator yields, answers views, and reports the summary', async () => {
    const { dir, cleanup } = tempDataDir()
    try {
      const config = resolveRunConfig({ scenario: 'happy-path', seed: '0', rollouts: 3 })
      const streamed: TraceEvent[] = []
      const sim = startWorkerSimulation({ config, dataDir: dir, runId: 'run-1' }, (events) =>
        streamed.push(...events),
      )
      const { summary } = await sim.done
      const generator = simulate(config, {
        digest: nodeDigest,
        workplace: loadNodeWorkplaceData(),
        openDirectory: (id) => new MemoryCheckpointDirectory({ location: `memory:${id}` }),
      })
      let next = generator.next()
      const expected: TraceEvent[] = []
      while (next.done !== true) {
        expected.push(next.value)
        next = generator.next()
      }
      expect(JSON.stringify(streamed)).toBe(JSON.stringify(expected))
      expect(summary.outcome).toBe(next.value.outcome)
      expect(summary.invariants).toEqual(next.value.invariants)
      expect(await sim.query('lineage', [expected.length])).toEqual(
        next.value.lineage(expected.length),
      )
      expect(await sim.query('participantsAt', [5])).toEqual(next.value.participantsAt(5))
      await sim.terminate()
      await expect(sim.query('lineage', [1])).rejects.toThrow(/stopped/)
    } finally {
      cleanup()
    }
  })

  it('a spare worker booted ahead simulates its start message as a worker given workerData does; a run of another heap budget gets none', async () => {
    const { dir, cleanup } = tempDataDir()
    try {
      const config = resolveRunConfig({ scenario: 'happy-path', seed: '0', rollouts: 3 })
      const run = async (spare: Worker | undefined, runId: string) => {
        const streamed: TraceEvent[] = []
        const sim = startWorkerSimulation(
          { config, dataDir: dir, runId },
          (events) => streamed.push(...events),
          undefined,
          spare,
        )
        const { summary } = await sim.done
        const lineage = await sim.query('lineage', [streamed.length])
        await sim.terminate()
        return { streamed, summary, lineage }
      }
      const spares = spareSimulationWorker(
        new URL('./simulationWorkerBootstrap.js', import.meta.url),
      )
      expect(spares.take(simulationHeapLimitMb(3))).toBeUndefined() // the first spare starts
      expect(spares.take(simulationHeapLimitMb(100_000))).toBeUndefined()
      const spare = spares.take(simulationHeapLimitMb(3))
      expect(spare).toBeDefined()
      const warm = await run(spare, 'run-warm')
      const cold = await run(undefined, 'run-cold')
      // The checkpoint directories are the run's own (their paths name it); the rest is the same.
      expect(JSON.stringify(warm.streamed)).toBe(JSON.stringify(cold.streamed))
      expect(warm.lineage).toEqual(cold.lineage)
      expect(warm.summary.outcome).toBe(cold.summary.outcome)
      expect(warm.summary.invariants).toEqual(cold.summary.invariants)
      expect(warm.summary.checkpoints.length).toBe(cold.summary.checkpoints.length)
      expect(spares.take(simulationHeapLimitMb(3))).toBeUndefined() // taken: none until a refill
      spares.refill()
      await spares.take(simulationHeapLimitMb(3))?.terminate()
    } finally {
      cleanup()
    }
  })

  it('a spare that died before a run asked for it is never handed out', async () => {
    const spares = spareSimulationWorker(new URL('data:text/javascript,throw new Error("boom")'))
    expect(spares.take(simulationHeapLimitMb(1))).toBeUndefined()
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(spares.take(simulationHeapLimitMb(1))).toBeUndefined()
  })

  it('a worker that cannot start rejects done with an error instead of throwing', async () => {
    const config = resolveRunConfig({ scenario: 'happy-path', seed: '0', rollouts: 1 })
    const sim = startWorkerSimulation(
      { config, dataDir: '/nonexistent', runId: 'x' },
      () => undefined,
      new URL('data:text/javascript,throw new Error("boom")'),
    )
    await expect(sim.done).rejects.toThrow(/boom/)
  })

  it('[bounded] a simulation that outgrows its heap budget fails its run with a message naming the budget; the server goes on', async () => {
    const config = resolveRunConfig({ scenario: 'happy-path', seed: '0', rollouts: 1 })
    // A worker that keeps everything it allocates: it must hit simulationHeapLimitMb(1) = 192 MB.
    const hog = new URL(
      'data:text/javascript,const keep = []; for (;;) keep.push(new Array(1e5).fill(keep.length))',
    )
    const sim = startWorkerSimulation(
      { config, dataDir: '/nonexistent', runId: 'x' },
      () => undefined,
      hog,
    )
    await expect(sim.done).rejects.toThrow(
      `the simulation outgrew its ${simulationHeapLimitMb(1)} MB heap (1 rollouts)`,
    )
  })
})

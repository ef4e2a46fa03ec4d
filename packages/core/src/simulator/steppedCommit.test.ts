import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { loadNodeWorkplaceData } from '../adapters/nodeWorkplaceData.ts'
import type { TraceEvent } from '../contracts/trace.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { verifyCheckpoint } from '../directory/verifyCheckpoint.ts'
import { resolveRunConfig, runSimulation, simulate } from './simulate.ts'

const workplace = loadNodeWorkplaceData()

/**
 * Streams a run, recording for every yielded event which files its checkpoint directory held then.
 */
function stream(scenario: 'happy-path' | 'crash-during-commit', seed: string) {
  const dirs = new Map<string, MemoryCheckpointDirectory>()
  const deps = {
    digest: nodeDigest,
    workplace,
    openDirectory: (id: string) => {
      const d = new MemoryCheckpointDirectory({ location: `mem://${id}` })
      dirs.set(id, d)
      return d
    },
  }
  const gen = simulate(resolveRunConfig({ scenario, seed, rollouts: 24 }), deps)
  const seen: { event: TraceEvent; files: ReadonlySet<string> }[] = []
  for (let next = gen.next(); next.done !== true; next = gen.next()) {
    const cid = next.value.payload['checkpoint_id']
    const dir = typeof cid === 'string' ? dirs.get(cid) : undefined
    seen.push({
      event: next.value,
      files: new Set(dir === undefined ? [] : dir.list().map((e) => e.path)),
    })
  }
  return seen
}

describe('stepped checkpoint work', () => {
  it('[commit] each directory write is performed when its event is yielded, not before', () => {
    for (const seed of ['0', '5']) {
      const seen = stream('happy-path', seed)
      const writes = seen.filter(
        (s) => s.event.type === 'directory.write' && s.event.payload['crashed'] === false,
      )
      expect(writes.length).toBeGreaterThan(20)
      const written = new Set<string>()
      for (const w of writes) {
        written.add(String(w.event.payload['path']))
        // The directory holds exactly the files whose writes have been yielded so far.
        expect([...w.files].sort()).toEqual([...written].sort())
      }
    }
  })

  it('[controller.publish-last] [commit] the trace keeps the protocol order: participant files, namespace manifests, aggregate, token store, checkpoint.json', () => {
    const paths = stream('happy-path', '1')
      .filter((s) => s.event.type === 'directory.write')
      .map((s) => String(s.event.payload['path']))
    const tail = paths.slice(-3)
    expect(tail).toEqual([
      'nemo_gym_checkpoint_manifest.json',
      'token-store/manifest.json',
      'checkpoint.json',
    ])
    // Every namespace's manifest comes after that namespace's files.
    for (const [i, p] of paths.entries()) {
      if (!p.endsWith('/manifest.json') || p.startsWith('token-store/')) continue
      const ns = p.slice(0, -'manifest.json'.length)
      expect(paths.slice(i + 1).some((q) => q.startsWith(ns) && !q.endsWith('manifest.json'))).toBe(
        false,
      )
    }
  })

  it('[commit] an injected crash is yielded after the writes made before it, and the retried commit seals the checkpoint', () => {
    const seen = stream('crash-during-commit', '0')
    const writes = seen.filter((s) => s.event.type === 'directory.write')
    const crashAt = writes.findIndex((s) => s.event.payload['crashed'] === true)
    expect(crashAt).toBeGreaterThan(0)
    expect(writes[crashAt]?.event.outcome).toBe('internal_error')
    // The crashed write stored nothing.
    expect(writes[crashAt]?.files.has(String(writes[crashAt]?.event.payload['path']))).toBe(false)
    expect(writes.at(-1)?.event.payload['path']).toBe('checkpoint.json')
  })

  it('[commit] a write the port refuses when it is performed fails that commit (traced, no exception); the checkpoint is retaken', () => {
    const result = runSimulation(
      resolveRunConfig({ scenario: 'happy-path', seed: '2', rollouts: 24 }),
      {
        digest: nodeDigest,
        workplace,
        // The first checkpoint's disk dies on its 5th write (and stays dead): every commit attempt
        // over it fails.
        openDirectory: (id: string) =>
          new MemoryCheckpointDirectory({
            location: `mem://${id}`,
            ...(id === 'ck-1' ? { failOnWrite: 5 } : {}),
          }),
      },
    )
    const refused = result.events.filter(
      (e) => e.type === 'directory.write' && e.outcome === 'internal_error',
    )
    expect(refused.length).toBeGreaterThan(0)
    expect(refused[0]?.payload['checkpoint_id']).toBe('ck-1')
    expect(result.events.some((e) => e.type === 'controller.abort')).toBe(true)
    expect(result.checkpoints.map((c) => c.checkpoint_id)).toEqual(['ck-2'])
  })

  it('[controller.commit-durable-before-success] a retried commit after any one failed write ends with every file present and verified', () => {
    const config = resolveRunConfig({ scenario: 'happy-path', seed: '2', rollouts: 9 })
    const clean = runSimulation(config, {
      digest: nodeDigest,
      workplace,
      openDirectory: (id: string) => new MemoryCheckpointDirectory({ location: `mem://${id}` }),
    })
    const writes = clean.events.filter(
      (e) => e.type === 'directory.write' && e.payload['checkpoint_id'] === 'ck-1',
    ).length
    expect(writes).toBeGreaterThan(10)
    for (let k = 1; k <= writes; k++) {
      let dir: MemoryCheckpointDirectory | undefined
      const result = runSimulation(config, {
        digest: nodeDigest,
        workplace,
        // The disk fails write k once (losing the writes since the last sync) and then works again.
        openDirectory: (id: string) => {
          const d = new MemoryCheckpointDirectory({
            location: `mem://${id}`,
            ...(id === 'ck-1' ? { failOnWrite: k, transient: true } : {}),
          })
          if (id === 'ck-1') dir = d
          return d
        },
      })
      expect(
        result.events.some((e) => e.type === 'directory.write' && e.outcome === 'internal_error'),
        `write ${k} failed`,
      ).toBe(true)
      expect(
        result.checkpoints.map((c) => c.checkpoint_id),
        `write ${k}`,
      ).toContain('ck-1')
      const report = verifyCheckpoint(dir as MemoryCheckpointDirectory, nodeDigest)
      expect(report.problems, `write ${k}`).toEqual([])
      expect(report.valid).toBe(true)
    }
  })
})

import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { loadNodeWorkplaceData } from '../adapters/nodeWorkplaceData.ts'
import type { TraceEvent } from '../contracts/trace.ts'
import { VERIFY_BATCH_BYTES, VERIFY_BATCH_FILES } from '../directory/verifySteps.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { resolveRunConfig, runSimulation, simulate } from './simulate.ts'

const workplace = loadNodeWorkplaceData()

/** A memory directory that counts the files read from it. */
class CountingDirectory extends MemoryCheckpointDirectory {
  reads = 0
  override readFile(path: string): Uint8Array | undefined {
    this.reads++
    return super.readFile(path)
  }
}

/**
 * Streams a run, counting for every yielded event the checkpoint files read since the one before.
 */
function readsPerEvent(rollouts: number, seed: string): { event: TraceEvent; reads: number }[] {
  const dirs: CountingDirectory[] = []
  const total = () => dirs.reduce((n, d) => n + d.reads, 0)
  const gen = simulate(resolveRunConfig({ scenario: 'happy-path', seed, rollouts }), {
    digest: nodeDigest,
    workplace,
    openDirectory: (id: string) => {
      const d = new CountingDirectory({ location: `mem://${id}` })
      dirs.push(d)
      return d
    },
  })
  const out: { event: TraceEvent; reads: number }[] = []
  let before = 0
  for (let next = gen.next(); next.done !== true; next = gen.next()) {
    const now = total()
    out.push({ event: next.value, reads: now - before })
    before = now
  }
  return out
}

describe('bounded checkpoint steps', () => {
  it('[controller.publish-last] [controller.restore-reads-aggregate] [steps] over a 1,000-rollout run no step reads more than one batch of checkpoint files (plus a few manifests)', () => {
    const seen = readsPerEvent(1000, '0')
    const verifies = seen.filter((s) => s.event.type === 'directory.verify')
    // Publish, the controller's restore check and each participant's restore read in batches.
    expect(verifies.filter((s) => s.event.phase === 'commit').length).toBeGreaterThan(10)
    expect(
      new Set(verifies.filter((s) => s.event.phase === 'restore').map((s) => s.event.from)),
    ).toEqual(
      new Set([
        'controller',
        'policy_model',
        'agent',
        'resources_blackjack',
        'resources_counter',
        'resources_workplace',
      ]),
    )
    for (const s of verifies) {
      const files = s.event.payload['files'] as number
      expect(files).toBeGreaterThan(0)
      expect(files).toBeLessThanOrEqual(VERIFY_BATCH_FILES)
      // A batch ends at the file that takes it to the byte bound.
      if (files > 1)
        expect((s.event.payload['bytes'] as number) - VERIFY_BATCH_BYTES).toBeLessThan(
          VERIFY_BATCH_BYTES,
        )
    }
    // The structural bound: no step (the work before one event) reads more than a batch plus the
    // manifests a check opens (namespace manifest, aggregate, marker, the agent manifest).
    const worst = seen.reduce((a, b) => (b.reads > a.reads ? b : a))
    expect(worst.reads, `${worst.event.step} ${worst.event.type}`).toBeLessThanOrEqual(
      VERIFY_BATCH_FILES + 8,
    )
  })

  it('[controller.publish-last] [steps] the batches of every folder cover each of its files once, in order, and the aggregate is written after the last batch', () => {
    const seen = readsPerEvent(60, '3').map((s) => s.event)
    const commit = seen.filter((e) => e.phase === 'commit' && e.payload['checkpoint_id'] === 'ck-1')
    const aggregateAt = commit.findIndex(
      (e) =>
        e.type === 'directory.write' && e.payload['path'] === 'nemo_gym_checkpoint_manifest.json',
    )
    const batches = commit.filter((e) => e.type === 'directory.verify')
    expect(batches.length).toBeGreaterThan(0)
    expect(commit.indexOf(batches.at(-1) as TraceEvent)).toBeLessThan(aggregateAt)
    const byFolder = new Map<string, TraceEvent[]>()
    for (const b of batches)
      byFolder.set(String(b.payload['path']), [
        ...(byFolder.get(String(b.payload['path'])) ?? []),
        b,
      ])
    expect([...byFolder.keys()].sort()).toEqual([
      'agent/',
      'model-ledger/policy/',
      'resources/blackjack/',
      'resources/counter/',
      'resources/workplace/',
    ])
    for (const list of byFolder.values()) {
      let checked = 0
      for (const b of list) {
        checked += b.payload['files'] as number
        expect(b.payload['checked']).toBe(checked)
        expect(b.payload['problems']).toBe(0)
      }
      expect(checked).toBe(list[0]?.payload['total'])
    }
  })

  it('[restore.corrupt-refused] [controller.restore-reads-aggregate] [steps] a corrupt file is found by its batch of the restore check, before any participant restores; the retaken checkpoint restores', () => {
    const result = runSimulation(
      resolveRunConfig({ scenario: 'corrupt-snapshot', seed: '4', rollouts: 30 }),
      {
        digest: nodeDigest,
        workplace,
        openDirectory: (id: string) => new MemoryCheckpointDirectory({ location: `mem://${id}` }),
      },
    )
    const ck1 = result.events.filter(
      (e) => e.phase !== 'run' && e.payload['checkpoint_id'] === 'ck-1',
    )
    const corrupted = ck1.find((e) => e.type === 'fault.corrupt_file')
    expect(corrupted).toBeDefined()
    const folder = String(corrupted?.payload['path']).replace(/[^/]+$/, '')
    const flagged = ck1.filter(
      (e) =>
        e.type === 'directory.verify' &&
        e.phase === 'restore' &&
        (e.payload['problems'] as number) > 0,
    )
    expect(flagged.map((e) => [e.from, e.payload['path'], e.payload['problems']])).toEqual([
      ['controller', folder, 1],
    ])
    const abandoned = ck1.findIndex((e) => e.type === 'controller.restore_abandoned')
    expect(abandoned).toBeGreaterThan(ck1.indexOf(flagged[0] as TraceEvent))
    // Nothing was sent to a participant to restore, so nothing was activated.
    expect(
      ck1.filter(
        (e) =>
          e.type === 'model.restore' ||
          e.type === 'agent.restore' ||
          e.type === 'resources.restore',
      ),
    ).toEqual([])
    expect(result.invariants['restore-all-or-nothing']).toBe('pass')
    expect(
      result.events.some(
        (e) =>
          e.type === 'resources.restore' &&
          e.payload['checkpoint_id'] === 'ck-2' &&
          e.outcome === 'ok',
      ),
    ).toBe(true)
  })
})

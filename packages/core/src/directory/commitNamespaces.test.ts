import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import type { LineageRow } from '../records/LineageRow.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { commitAgentNamespace } from './commitAgentNamespace.ts'
import { commitLedgerNamespace } from './commitLedgerNamespace.ts'
import type { LedgerCommitInput } from './commitLedgerNamespace.ts'
import { commitResourcesNamespace } from './commitResourcesNamespace.ts'
import { continuationRootsOf } from './continuationRoots.ts'
import { AGGREGATE_MANIFEST_PATH, resourcesManifestPath, resourcesSnapshotPath } from './layout.ts'
import { publishAggregateManifest } from './publishAggregateManifest.ts'
import { loadLedgerNamespace } from './loadLedgerNamespace.ts'
import { loadResourcesNamespace } from './loadResourcesNamespace.ts'
import { createSampleCheckpoint } from './sampleCheckpoint.ts'

const digest = nodeDigest
const sample = createSampleCheckpoint(6)
const counter = sample.snapshots['counter'] ?? []

function ledgerInput(overrides: Partial<LedgerCommitInput> = {}): LedgerCommitInput {
  return {
    server_name: 'policy',
    checkpoint_id: 'ckpt-1',
    rollouts: sample.lineage,
    tombstones: [],
    source_attempts: [],
    continuation_roots: continuationRootsOf(sample.records),
    ...overrides,
  }
}

describe('namespace commits', () => {
  it('[manifest-last] data files are written before the manifest', () => {
    const dir = new MemoryCheckpointDirectory()
    const writes: string[] = []
    const spy = {
      ...dir,
      location: dir.location,
      writeFile: (p: string, d: Uint8Array) => (writes.push(p), dir.writeFile(p, d)),
      sync: () => dir.sync(),
      readFile: (p: string) => dir.readFile(p),
      list: () => dir.list(),
    }
    const result = commitResourcesNamespace(spy, digest, {
      server_name: 'counter',
      checkpoint_id: 'ckpt-1',
      snapshots: counter,
    })
    expect(result).toEqual({
      ok: true,
      value: { sessions: counter.length, manifest_digest: expect.stringMatching(/^[0-9a-f]{64}$/) },
    })
    expect(writes.at(-1)).toBe(resourcesManifestPath('counter'))
    expect(writes.slice(0, -1)).toEqual(counter.map((s) => resourcesSnapshotPath('counter', s)))
  })

  it('[immutable] re-committing the same checkpoint returns the existing manifest without writing', () => {
    const dir = new MemoryCheckpointDirectory()
    const first = commitResourcesNamespace(dir, digest, {
      server_name: 'counter',
      checkpoint_id: 'ckpt-1',
      snapshots: counter,
    })
    const writes = dir.writeCount
    const again = commitResourcesNamespace(dir, digest, {
      server_name: 'counter',
      checkpoint_id: 'ckpt-1',
      snapshots: [...counter].reverse(),
    })
    expect(again).toEqual(first)
    expect(dir.writeCount).toBe(writes)
  })

  it('[immutable] another checkpoint id or changed content is refused with the participant code', () => {
    const dir = new MemoryCheckpointDirectory()
    expect(
      commitResourcesNamespace(dir, digest, {
        server_name: 'counter',
        checkpoint_id: 'ckpt-1',
        snapshots: counter,
      }).ok,
    ).toBe(true)
    const other = commitResourcesNamespace(dir, digest, {
      server_name: 'counter',
      checkpoint_id: 'ckpt-2',
      snapshots: counter,
    })
    expect(!other.ok && other.error.code).toBe('resources_checkpoint_error')
    expect(!other.ok && other.error.message).toMatch(/already holds checkpoint ckpt-1/)
    const changed = commitResourcesNamespace(dir, digest, {
      server_name: 'counter',
      checkpoint_id: 'ckpt-1',
      snapshots: counter.slice(1),
    })
    expect(!changed.ok && changed.error.message).toMatch(/changed before the commit retry/)

    expect(
      commitAgentNamespace(dir, digest, {
        checkpoint_id: 'ckpt-1',
        instance_name: 'agent',
        records: sample.records,
      }).ok,
    ).toBe(true)
    const agent = commitAgentNamespace(dir, digest, {
      checkpoint_id: 'ckpt-9',
      instance_name: 'agent',
      records: sample.records,
    })
    expect(!agent.ok && agent.error.code).toBe('agent_checkpoint_error')

    expect(commitLedgerNamespace(dir, digest, ledgerInput()).ok).toBe(true)
    const ledger = commitLedgerNamespace(
      dir,
      digest,
      ledgerInput({ tombstones: [{ rollout_id: 'zz', attempt_index: 0 }] }),
    )
    expect(!ledger.ok && ledger.error.code).toBe('ledger_mismatch')
  })

  it('[immutable] re-committing over a corrupted namespace is refused, not papered over', () => {
    const dir = new MemoryCheckpointDirectory()
    commitResourcesNamespace(dir, digest, {
      server_name: 'counter',
      checkpoint_id: 'ckpt-1',
      snapshots: counter,
    })
    const first = counter[0]
    if (!first) throw new Error('fixture')
    dir.flipByte(resourcesSnapshotPath('counter', first), 3)
    const again = commitResourcesNamespace(dir, digest, {
      server_name: 'counter',
      checkpoint_id: 'ckpt-1',
      snapshots: counter,
    })
    expect(!again.ok && again.error.problems.map((p) => p.code)).toEqual(['digest_mismatch'])
    expect(loadResourcesNamespace(dir, digest, 'counter').ok).toBe(false)
  })

  it('[inputs] invalid ids and duplicate sessions are refused before anything is written', () => {
    const dir = new MemoryCheckpointDirectory()
    const first = counter[0]
    if (!first) throw new Error('fixture')
    const dup = commitResourcesNamespace(dir, digest, {
      server_name: 'counter',
      checkpoint_id: 'ckpt-1',
      snapshots: [first, first],
    })
    expect(!dup.ok && dup.error.message).toMatch(/two snapshots/)
    const badId = commitResourcesNamespace(dir, digest, {
      server_name: '../x',
      checkpoint_id: 'ckpt-1',
      snapshots: [],
    })
    expect(!badId.ok && badId.error.code).toBe('resources_checkpoint_error')
    const badCkpt = commitAgentNamespace(dir, digest, {
      checkpoint_id: '.hidden',
      instance_name: 'a',
      records: [],
    })
    expect(!badCkpt.ok && badCkpt.error.code).toBe('agent_checkpoint_error')
    const dupAgent = commitAgentNamespace(dir, digest, {
      checkpoint_id: 'c',
      instance_name: 'a',
      records: [sample.records[0]!, sample.records[0]!],
    })
    expect(!dupAgent.ok && dupAgent.error.message).toMatch(/two boundary records/)
    expect(dir.writeCount).toBe(0)
  })

  it('[ledger] roots must name non-tombstoned attempts with exactly one committed row', () => {
    const roots = continuationRootsOf(sample.records)
    const root = roots[0]
    if (!root) throw new Error('fixture')
    const expectRefused = (input: LedgerCommitInput, message: RegExp) => {
      const dir = new MemoryCheckpointDirectory()
      const result = commitLedgerNamespace(dir, digest, input)
      expect(result.ok).toBe(false)
      if (!result.ok) {
        expect(result.error.code).toBe('ledger_mismatch')
        expect(result.error.message).toMatch(message)
      }
      expect(dir.writeCount).toBe(0)
    }
    expectRefused(
      ledgerInput({
        tombstones: [{ rollout_id: root.rollout_id, attempt_index: root.attempt_index }],
      }),
      /tombstoned/,
    )
    const { [root.capture_key]: _dropped, ...withoutRoot } = sample.lineage
    expectRefused(ledgerInput({ rollouts: withoutRoot }), /has no lineage/)
    const failed = (sample.lineage[root.capture_key] ?? []).map((r): LineageRow =>
      r.model_call_id === root.last_committed_model_call_id
        ? { ...r, failure_reason: 'cancelled' }
        : r,
    )
    expectRefused(
      ledgerInput({ rollouts: { ...sample.lineage, [root.capture_key]: failed } }),
      /matches 0 committed rows/,
    )
    expectRefused(
      ledgerInput({ continuation_roots: roots.slice(1) }),
      /not named by any continuation root/,
    )
    const foreign = (sample.lineage['r1'] ?? []).map((r) => ({ ...r }))
    expectRefused(ledgerInput({ rollouts: { ...sample.lineage, r0: foreign } }), /belongs to r1/)
  })

  it('[ledger] storage references carry the staging keys of each root call and its ancestors', () => {
    const dir = new MemoryCheckpointDirectory()
    const result = commitLedgerNamespace(
      dir,
      digest,
      ledgerInput({ source_attempts: [{ rollout_id: 'r2', attempt_index: 0 }] }),
    )
    expect(result.ok).toBe(true)
    if (!result.ok) return
    const allKeys = Object.values(sample.lineage)
      .flatMap((rows) => rows.map((r) => r.staging_key))
      .sort()
    expect(result.value.storage_references.map((r) => r.key)).toEqual(allKeys)
    expect(result.value.rows).toBe(allKeys.length)
    const loaded = loadLedgerNamespace(dir, digest, 'policy')
    expect(loaded.ok && loaded.value.manifest.source_attempts).toEqual([
      { rollout_id: 'r2', attempt_index: 0 },
    ])
    expect(loaded.ok && loaded.value.manifest.storage_references).toEqual(
      result.value.storage_references,
    )
  })

  it('[ledger] a restored attempt 1 uses the -a1 capture key in file names', () => {
    const later = createSampleCheckpoint(2, { attempt: 1 })
    const dir = new MemoryCheckpointDirectory()
    const result = commitLedgerNamespace(dir, digest, {
      ...ledgerInput(),
      rollouts: later.lineage,
      continuation_roots: continuationRootsOf(later.records),
    })
    expect(result.ok).toBe(true)
    expect(dir.list().map((e) => e.path)).toEqual([
      'model-ledger/policy/manifest.json',
      'model-ledger/policy/r0-a1.lineage.jsonl',
      'model-ledger/policy/r1-a1.lineage.jsonl',
    ])
  })

  it('[integrity] the aggregate is never published over a corrupted or unlisted participant file', () => {
    const participants = sample.participants.filter(
      (p) => p.kind === 'resources' && p.name === 'counter',
    )
    const first = counter[0]
    if (!first) throw new Error('fixture')
    const publish = (dir: MemoryCheckpointDirectory) =>
      publishAggregateManifest(dir, digest, {
        checkpoint_id: 'ckpt-1',
        participants,
        participant_results: {},
        live_membership: [],
      })

    const corrupted = new MemoryCheckpointDirectory()
    commitResourcesNamespace(corrupted, digest, {
      server_name: 'counter',
      checkpoint_id: 'ckpt-1',
      snapshots: counter,
    })
    corrupted.flipByte(resourcesSnapshotPath('counter', first), 10)
    const refused = publish(corrupted)
    expect(!refused.ok && refused.error.code).toBe('resources_checkpoint_error')
    expect(!refused.ok && refused.error.problems).toEqual([
      expect.objectContaining({
        code: 'digest_mismatch',
        path: resourcesSnapshotPath('counter', first),
      }),
    ])
    expect(corrupted.readFile(AGGREGATE_MANIFEST_PATH)).toBeUndefined()

    const stray = new MemoryCheckpointDirectory()
    commitResourcesNamespace(stray, digest, {
      server_name: 'counter',
      checkpoint_id: 'ckpt-1',
      snapshots: counter,
    })
    stray.putRaw('resources/blackjack/r0.a0.json', new Uint8Array([123, 125]))
    const strayRefused = publish(stray)
    expect(!strayRefused.ok && strayRefused.error.problems.map((p) => [p.code, p.path])).toEqual([
      ['unlisted_file', 'resources/blackjack/r0.a0.json'],
    ])

    const clean = new MemoryCheckpointDirectory()
    commitResourcesNamespace(clean, digest, {
      server_name: 'counter',
      checkpoint_id: 'ckpt-1',
      snapshots: counter,
    })
    const published = publish(clean)
    expect(published.ok && published.value.files).toBe(counter.length + 1)
  })
})

import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import type { AgentBoundaryRecord } from '../records/AgentBoundaryRecord.ts'
import type { ResourceSnapshot } from '../records/ResourceSnapshot.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { loadResourcesNamespace } from './loadResourcesNamespace.ts'
import { reconcileReplacementSet } from './reconcileReplacementSet.ts'
import { checkSnapshotForWrite, parseSnapshotFromFile } from './snapshotEnvelope.ts'

/** The v1 files the real Gym resources participant wrote (vendored, see vendor/real_stack/). */
const RESOURCES = fileURLToPath(
  new URL(
    '../../../../vendor/real_stack/d2-commit-real-resources/data/ck-d2-1/resources',
    import.meta.url,
  ),
)
const recorded = (server: string, file: string): unknown =>
  JSON.parse(readFileSync(join(RESOURCES, server, file), 'utf8'))

const boundary = (rollout: string, revisions: Record<string, number>): AgentBoundaryRecord =>
  ({
    rollout_id: rollout,
    attempt_index: 0,
    resource_state_revisions: revisions,
  }) as unknown as AgentBoundaryRecord

describe('ResourceSnapshot schema 1 (the earlier Gym generation; docs/real-stack.md)', () => {
  it('[wire.snapshot-schema-1] the recorded v1 file reads into the common shape: version kept, no receipts, created_at in ms', () => {
    const parsed = parseSnapshotFromFile(recorded('counter', 'r1.a0.json'))
    expect(parsed).toEqual({
      ok: true,
      value: {
        schema_version: 1,
        rollout_id: 'r1',
        attempt_index: 0,
        state_revision: 3,
        state: { env: 'counter', session_id: 'bdf482d1-0cb4-4c73-a40d-312d106d01bd', count: 2 },
        mutation_receipts: [],
        created_at: 1796151081457,
      },
    })
  })

  it('[wire.snapshot-schema-1] schema 1 is as strict as its pydantic model, other versions are refused, and only 2 is ever written', () => {
    const v1 = recorded('blackjack', 'r0.a0.json') as Record<string, unknown>
    expect(parseSnapshotFromFile({ ...v1, mutation_receipts: [] })).toMatchObject({ ok: false })
    expect(parseSnapshotFromFile({ ...v1, state: [1] })).toMatchObject({ ok: false })
    expect(parseSnapshotFromFile({ ...v1, created_at: -1 })).toMatchObject({ ok: false })
    expect(parseSnapshotFromFile({ ...v1, schema_version: 3 })).toMatchObject({ ok: false })
    const read = parseSnapshotFromFile(v1)
    if (!read.ok) throw new Error(read.message)
    expect(checkSnapshotForWrite(read.value)).toMatch(/schema_version/)
  })

  it('[wire.snapshot-schema-1] a recorded v1 namespace (json.dumps manifest, model_dump_json files) loads with every digest checked', () => {
    const files = new Map<string, Uint8Array>()
    for (const server of readdirSync(RESOURCES))
      for (const name of readdirSync(join(RESOURCES, server)))
        files.set(`resources/${server}/${name}`, readFileSync(join(RESOURCES, server, name)))
    const dir = new MemoryCheckpointDirectory({ files })
    const counter = loadResourcesNamespace(dir, nodeDigest, 'counter')
    expect(
      counter.ok && counter.value.snapshots.map((s) => [s.rollout_id, s.schema_version]),
    ).toEqual([
      ['r1', 1],
      ['r3', 1],
    ])
    dir.flipByte('resources/counter/r3.a0.json', 5)
    expect(loadResourcesNamespace(dir, nodeDigest, 'counter')).toMatchObject({
      ok: false,
      error: { code: 'resources_checkpoint_error' },
    })
  })

  it('[wire.snapshot-schema-1] reconciliation: a v1 session no boundary references (a finished rollout the earlier generation still exports) is no problem; a v2 one still is, and revisions must match', () => {
    const read = (server: string, file: string): ResourceSnapshot => {
      const r = parseSnapshotFromFile(recorded(server, file))
      if (!r.ok) throw new Error(r.message)
      return r.value
    }
    const r1 = read('counter', 'r1.a0.json')
    const r3 = read('counter', 'r3.a0.json')
    const records = [boundary('r1', { counter: 3 }), boundary('r3', { counter: 3 })]
    expect(reconcileReplacementSet('counter', [r1, r3], records)).toEqual([])
    expect(reconcileReplacementSet('counter', [r1, r3], records.slice(0, 1))).toEqual([])
    expect(
      reconcileReplacementSet('counter', [r1, { ...r3, schema_version: 2 }], records.slice(0, 1)),
    ).toMatchObject([{ code: 'incomplete_set', path: 'resources/counter/r3.a0.json' }])
    expect(
      reconcileReplacementSet('counter', [r1], [boundary('r1', { counter: 2 })]),
    ).toMatchObject([{ code: 'revision_mismatch' }])
    expect(reconcileReplacementSet('counter', [r1], records)).toMatchObject([
      { code: 'incomplete_set', path: 'agent/r3.a0.json' },
    ])
  })
})

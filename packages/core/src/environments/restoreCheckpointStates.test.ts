import { describe, expect, it } from 'vitest'
import { counterCodec } from './counter/counterServer.ts'
import { restoreCheckpointStates } from './restoreCheckpointStates.ts'
import type { ResourceSnapshot } from '../records/ResourceSnapshot.ts'
import { resourceSnapshotSchema } from '../records/ResourceSnapshot.ts'
import { jsonSafeCopy } from './gymnasium/jsonSafeCopy.ts'

const snap = (rollout_id: string, state: ResourceSnapshot['state']): ResourceSnapshot => ({
  schema_version: 2,
  rollout_id,
  attempt_index: 0,
  state_revision: 3,
  state,
  mutation_receipts: [],
  created_at: 120,
})

describe('[restore-all-or-nothing] restoreCheckpointStates', () => {
  it('returns every session when all snapshots decode', () => {
    const r = restoreCheckpointStates(counterCodec, [
      snap('r0', { counter: 1 }),
      snap('r1', { counter: 2 }),
    ])
    expect(r).toEqual({
      ok: true,
      value: [
        { rollout_id: 'r0', attempt_index: 0, state_revision: 3, session: { counter: 1 } },
        { rollout_id: 'r1', attempt_index: 0, state_revision: 3, session: { counter: 2 } },
      ],
    })
  })
  it('activates nothing and names the bad snapshot when one fails', () => {
    const r = restoreCheckpointStates(counterCodec, [
      snap('r0', { counter: 1 }),
      snap('r1', { counter: 'x' }),
    ])
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error.code).toBe('unsafe_resources_restore')
      expect(r.error.message).toContain('r1.a0')
    }
    expect(
      restoreCheckpointStates(counterCodec, [
        snap('r0', { counter: 1 }),
        snap('r0', { counter: 1 }),
      ]).ok,
    ).toBe(false)
    expect(
      restoreCheckpointStates({ ...counterCodec, enabled: false }, [snap('r0', { counter: 1 })]).ok,
    ).toBe(false)
  })
  it('ResourceSnapshot schema accepts the contract shape and rejects others', () => {
    expect(resourceSnapshotSchema.safeParse(snap('r0', { counter: 1 })).success).toBe(true)
    expect(
      resourceSnapshotSchema.safeParse({ ...snap('r0', null), created_at: undefined }).success,
    ).toBe(false)
    expect(
      resourceSnapshotSchema.safeParse({ ...snap('r0', null), schema_version: 1 }).success,
    ).toBe(false)
  })
  it('[gym-base-codec] jsonSafeCopy refuses live objects with the path', () => {
    expect(jsonSafeCopy({ a: [1, 'x', null, { b: true }] })).toEqual({
      ok: true,
      value: { a: [1, 'x', null, { b: true }] },
    })
    const bad = jsonSafeCopy({ a: [new Map()] })
    expect(!bad.ok && bad.error.message).toContain('$.a[0]')
    expect(jsonSafeCopy({ n: Number.NaN }).ok).toBe(false)
    expect(jsonSafeCopy({ f: () => 1 }).ok).toBe(false)
  })
})

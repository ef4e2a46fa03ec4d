import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { resourceSnapshotSchema } from '../records/ResourceSnapshot.ts'
import { createSampleCheckpoint } from './sampleCheckpoint.ts'
import { checkSnapshotForWrite, isResourceSnapshot } from './snapshotEnvelope.ts'

const samples = Object.values(createSampleCheckpoint(30).snapshots).flat()

const receipt = fc.record(
  {
    request_id: fc.oneof(fc.string(), fc.constant('req-1')),
    expected_revision: fc.oneof(fc.nat(), fc.constant(-1), fc.constant(1.5)),
    input_digest: fc.oneof(fc.constant('a'.repeat(64)), fc.string()),
    status: fc.oneof(fc.integer({ min: 100, max: 599 }), fc.integer(), fc.double()),
    headers: fc.array(
      fc.oneof(fc.tuple(fc.string(), fc.string()), fc.array(fc.string()), fc.anything()),
    ),
    body_base64: fc.oneof(fc.string(), fc.anything()),
    resulting_revision: fc.oneof(fc.nat(), fc.constant(-1)),
  },
  { requiredKeys: ['request_id', 'input_digest', 'status', 'headers', 'body_base64'] },
)

/** A sample snapshot with receipts, and one field replaced, removed or added. */
const candidate = fc
  .tuple(
    fc.constantFrom(...samples),
    fc.array(receipt, { maxLength: 3 }),
    fc.constantFrom(
      'schema_version',
      'rollout_id',
      'attempt_index',
      'state_revision',
      'state',
      'mutation_receipts',
      'created_at',
      'extra',
      'none',
    ),
    fc.oneof(
      fc.jsonValue(),
      fc.anything(),
      fc.constant(undefined),
      fc.constant(2),
      fc.constant(-1),
      fc.constant(0.5),
    ),
  )
  .map(([snapshot, receipts, key, value]) => {
    const copy: Record<string, unknown> = { ...snapshot, mutation_receipts: receipts }
    if (key === 'none') return copy
    if (value === undefined) delete copy[key]
    else copy[key] = value
    return copy
  })

describe('snapshot checks without zod', () => {
  it('[inputs] passes every snapshot the servers build, as the schema does', () => {
    expect(samples.length).toBeGreaterThan(0)
    for (const snapshot of samples) {
      expect(isResourceSnapshot(snapshot)).toBe(true)
      expect(resourceSnapshotSchema.safeParse(snapshot).success).toBe(true)
      expect(checkSnapshotForWrite(snapshot)).toBeUndefined()
    }
  })

  it('[inputs] never passes a snapshot the schema refuses (receipts and fields varied)', () => {
    fc.assert(
      fc.property(candidate, (value) => {
        if (isResourceSnapshot(value))
          expect(resourceSnapshotSchema.safeParse(value).success).toBe(true)
      }),
      { numRuns: 3000 },
    )
    fc.assert(
      fc.property(fc.anything(), (value) => {
        if (isResourceSnapshot(value))
          expect(resourceSnapshotSchema.safeParse(value).success).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })
})

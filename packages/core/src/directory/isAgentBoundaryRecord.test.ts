import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { agentBoundaryRecordSchema } from '../records/AgentBoundaryRecord.ts'
import { isAgentBoundaryRecord } from './isAgentBoundaryRecord.ts'
import { createSampleCheckpoint } from './sampleCheckpoint.ts'

const records = createSampleCheckpoint(40).records

/** A record with one field replaced, removed, or a field added. */
const mutated = fc
  .tuple(
    fc.constantFrom(...records),
    fc.constantFrom(...Object.keys(records[0] ?? {}), 'extra'),
    fc.oneof(
      fc.jsonValue(),
      fc.anything(),
      fc.constant(undefined),
      fc.constant(Number.NaN),
      fc.constant(-1),
      fc.constant(2 ** 53),
      fc.constant('bad id!'),
      fc.constant(''),
    ),
  )
  .map(([record, key, value]) => {
    const copy: Record<string, unknown> = { ...record }
    if (value === undefined && key !== 'extra') delete copy[key]
    else copy[key] = value
    return copy
  })

describe('isAgentBoundaryRecord', () => {
  it('[inputs] passes every record the agent builds, as the schema does', () => {
    expect(records.length).toBeGreaterThan(0)
    for (const record of records) {
      expect(isAgentBoundaryRecord(record)).toBe(true)
      expect(agentBoundaryRecordSchema.safeParse(record).success).toBe(true)
    }
  })

  it('[inputs] never passes what the schema refuses (records with one field changed, removed or added)', () => {
    fc.assert(
      fc.property(mutated, (candidate) => {
        if (isAgentBoundaryRecord(candidate))
          expect(agentBoundaryRecordSchema.safeParse(candidate).success).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })

  it('[inputs] never passes arbitrary values the schema refuses', () => {
    fc.assert(
      fc.property(fc.anything(), (candidate) => {
        if (isAgentBoundaryRecord(candidate))
          expect(agentBoundaryRecordSchema.safeParse(candidate).success).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })
})

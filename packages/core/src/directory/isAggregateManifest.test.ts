import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { isAggregateManifest } from './isAggregateManifest.ts'
import { parseJsonFile } from './jsonFile.ts'
import { AGGREGATE_MANIFEST_PATH } from './layout.ts'
import { aggregateManifestSchema } from './manifests.ts'
import { commitSampleCheckpoint, createSampleCheckpoint } from './sampleCheckpoint.ts'

const dir = new MemoryCheckpointDirectory({ location: 'mem://aggregate' })
const committed = commitSampleCheckpoint(dir, nodeDigest, createSampleCheckpoint(12))
const parsed = parseJsonFile(dir.readFile(AGGREGATE_MANIFEST_PATH) ?? new Uint8Array())
const manifest = (parsed.ok ? parsed.value : {}) as Record<string, unknown>
const firstFile = Object.keys((manifest['files'] ?? {}) as object)[0] ?? 'agent/x.json'

const odd = fc.oneof(
  fc.jsonValue(),
  fc.anything(),
  fc.constant(undefined),
  fc.constant(Number.NaN),
  fc.constant(-1),
  fc.constant('bad id!'),
  fc.constant(''),
  fc.constant('0'.repeat(64)),
  fc.constant('A'.repeat(64)),
)

/**
 * The manifest with one field replaced or removed, a field added, or one entry of `files` /
 * `participant_results` changed.
 */
const mutated = fc
  .tuple(fc.constantFrom(...Object.keys(manifest), 'extra', 'files.entry', 'results.entry'), odd)
  .map(([key, value]) => {
    const copy: Record<string, unknown> = { ...manifest }
    if (key === 'files.entry')
      copy['files'] = { ...(manifest['files'] as object), [firstFile]: value }
    else if (key === 'results.entry')
      copy['participant_results'] = {
        ...(manifest['participant_results'] as object),
        'commit:agent': value,
      }
    else if (value === undefined && key !== 'extra') delete copy[key]
    else copy[key] = value
    return copy
  })

describe('isAggregateManifest', () => {
  it('[controller.publish-last] [inputs] passes the aggregate manifest the publish builds, as the schema does', () => {
    expect(committed.ok).toBe(true)
    expect(aggregateManifestSchema.safeParse(manifest).success).toBe(true)
    expect(isAggregateManifest(manifest)).toBe(true)
  })

  it('[inputs] never passes what the schema refuses (one field or one entry changed, removed or added)', () => {
    fc.assert(
      fc.property(mutated, (candidate) => {
        if (isAggregateManifest(candidate))
          expect(aggregateManifestSchema.safeParse(candidate).success).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })

  it('[inputs] never passes arbitrary values the schema refuses', () => {
    fc.assert(
      fc.property(fc.anything(), (candidate) => {
        if (isAggregateManifest(candidate))
          expect(aggregateManifestSchema.safeParse(candidate).success).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })
})

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { isTokenStoreManifest } from './isTokenStoreManifest.ts'
import { parseJsonFile } from './jsonFile.ts'
import { TOKEN_STORE_MANIFEST_PATH } from './layout.ts'
import { tokenStoreManifestSchema } from './manifests.ts'
import { commitSampleCheckpoint, createSampleCheckpoint } from './sampleCheckpoint.ts'

const dir = new MemoryCheckpointDirectory({ location: 'mem://token-store' })
const committed = commitSampleCheckpoint(dir, nodeDigest, createSampleCheckpoint(12))
const parsed = parseJsonFile(dir.readFile(TOKEN_STORE_MANIFEST_PATH) ?? new Uint8Array())
const manifest = (parsed.ok ? parsed.value : {}) as Record<string, unknown>

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
 * The manifest with one field replaced or removed, a field added, or one staging key or snapshot
 * entry changed.
 */
const mutated = fc
  .tuple(fc.constantFrom(...Object.keys(manifest), 'extra', 'keys.entry', 'snapshot.entry'), odd)
  .map(([key, value]) => {
    const copy: Record<string, unknown> = { ...manifest }
    if (key === 'keys.entry')
      copy['staging_keys'] = [...(manifest['staging_keys'] as unknown[]), value]
    else if (key === 'snapshot.entry') copy['snapshot'] = { held: value }
    else if (value === undefined && key !== 'extra') delete copy[key]
    else copy[key] = value
    return copy
  })

describe('isTokenStoreManifest', () => {
  it('[controller.publish-last] [inputs] passes the token-store manifest the publish builds, as the schema does', () => {
    expect(committed.ok).toBe(true)
    expect(tokenStoreManifestSchema.safeParse(manifest).success).toBe(true)
    expect(isTokenStoreManifest(manifest)).toBe(true)
  })

  it('[inputs] never passes what the schema refuses (one field or one entry changed, removed or added)', () => {
    fc.assert(
      fc.property(mutated, (candidate) => {
        if (isTokenStoreManifest(candidate))
          expect(tokenStoreManifestSchema.safeParse(candidate).success).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })

  it('[inputs] never passes arbitrary values the schema refuses', () => {
    fc.assert(
      fc.property(fc.anything(), (candidate) => {
        if (isTokenStoreManifest(candidate))
          expect(tokenStoreManifestSchema.safeParse(candidate).success).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })
})

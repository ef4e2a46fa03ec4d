import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { loadNodeWorkplaceData } from '../adapters/nodeWorkplaceData.ts'
import { resolveRunConfig, runSimulation } from '../simulator/simulate.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { parseJsonFile } from './jsonFile.ts'
import { AGGREGATE_MANIFEST_PATH } from './layout.ts'
import type { AggregateManifest } from './manifests.ts'
import { aggregateManifestSchema } from './manifests.ts'
import { aggregateInSchemaOrder, readAggregateManifest } from './readAggregateManifest.ts'
import { createDirectoryView } from './DirectoryView.ts'
import { encodeJsonFile } from './jsonFile.ts'
import { commitSampleCheckpoint, createSampleCheckpoint } from './sampleCheckpoint.ts'

/**
 * The aggregate manifests of a sample checkpoint and of simulated runs (every participant kind,
 * live membership, results).
 */
function aggregates(): Uint8Array[] {
  const out: Uint8Array[] = []
  const sample = new MemoryCheckpointDirectory({ location: 'mem://sample' })
  commitSampleCheckpoint(sample, nodeDigest, createSampleCheckpoint(9))
  out.push(sample.readFile(AGGREGATE_MANIFEST_PATH) as Uint8Array)
  for (const [scenario, seed] of [
    ['happy-path', '2'],
    ['generation-safe-cut', '5'],
    ['two-worker-admission', '1'],
  ] as const) {
    const dirs: MemoryCheckpointDirectory[] = []
    runSimulation(resolveRunConfig({ scenario, seed, rollouts: 12 }), {
      digest: nodeDigest,
      workplace: loadNodeWorkplaceData(),
      openDirectory: (id) => (
        dirs.push(new MemoryCheckpointDirectory({ location: `mem://${id}` })),
        dirs.at(-1) as MemoryCheckpointDirectory
      ),
    })
    for (const d of dirs) {
      const bytes = d.readFile(AGGREGATE_MANIFEST_PATH)
      if (bytes !== undefined) out.push(bytes)
    }
  }
  return out
}

describe('readAggregateManifest', () => {
  it('[controller.restore-reads-aggregate] the primed read of a published aggregate is what the schema returns for its bytes, key order included', () => {
    const all = aggregates()
    expect(all.length).toBeGreaterThan(3)
    for (const bytes of all) {
      const parsed = parseJsonFile(bytes)
      expect(parsed.ok).toBe(true)
      if (!parsed.ok) continue
      const checked = aggregateManifestSchema.safeParse(parsed.value)
      expect(checked.success).toBe(true)
      const primed = aggregateInSchemaOrder(parsed.value as AggregateManifest)
      expect(JSON.stringify(primed)).toBe(JSON.stringify(checked.data))
    }
  })

  it('[controller.restore-reads-aggregate] [integrity] an aggregate the direct check refuses is still read by the schema: a bad digest is a schema_error naming the file', () => {
    const dir = new MemoryCheckpointDirectory({ location: 'mem://bad-aggregate' })
    commitSampleCheckpoint(dir, nodeDigest, createSampleCheckpoint(5))
    const good = readAggregateManifest(createDirectoryView(dir, nodeDigest))
    expect(good.ok).toBe(true)
    const parsed = parseJsonFile(dir.readFile(AGGREGATE_MANIFEST_PATH) as Uint8Array)
    const manifest = (parsed.ok ? parsed.value : {}) as AggregateManifest
    const first = Object.keys(manifest.files)[0] as string
    dir.writeFile(
      AGGREGATE_MANIFEST_PATH,
      encodeJsonFile({ ...manifest, files: { ...manifest.files, [first]: 'not-a-digest' } }),
    )
    const bad = readAggregateManifest(createDirectoryView(dir, nodeDigest))
    expect(bad.ok).toBe(false)
    if (!bad.ok)
      expect(bad.problems.map((p) => [p.code, p.path])).toEqual([
        ['schema_error', AGGREGATE_MANIFEST_PATH],
      ])
  })
})

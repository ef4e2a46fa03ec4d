import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { encodeUtf8 } from '../utf8.ts'
import {
  AGGREGATE_MANIFEST_PATH,
  CHECKPOINT_MARKER_PATH,
  TOKEN_STORE_MANIFEST_PATH,
} from './layout.ts'
import { commitSampleCheckpoint, createSampleCheckpoint } from './sampleCheckpoint.ts'
import { verifyCheckpoint } from './verifyCheckpoint.ts'

/** The checkpoint the real NeMo-RL controller published (vendored, see vendor/real_stack/). */
const CK_REAL_1 = fileURLToPath(
  new URL('../../../../vendor/real_stack/d1-adapted-cycle/data/ck-real-1', import.meta.url),
)

function loadTree(root: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>()
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else files.set(relative(root, path).split('\\').join('/'), readFileSync(path))
    }
  }
  walk(root)
  return files
}

const realCheckpoint = () => new MemoryCheckpointDirectory({ files: loadTree(CK_REAL_1) })

describe('checkpoints the real NeMo-RL controller published (docs/real-stack.md)', () => {
  it('[wire.nemo-rl-checkpoint] d1-adapted-cycle/data/ck-real-1 (only nemo_gym_checkpoint_manifest.json) is valid, publisher nemo-rl', () => {
    const dir = realCheckpoint()
    expect(dir.readFile(CHECKPOINT_MARKER_PATH)).toBeUndefined()
    expect(dir.readFile(TOKEN_STORE_MANIFEST_PATH)).toBeUndefined()
    expect(verifyCheckpoint(dir, nodeDigest)).toEqual({
      valid: true,
      problems: [],
      publisher: 'nemo-rl',
    })
  })

  it('[wire.nemo-rl-checkpoint] every digest is still checked: a flipped byte, a missing file, an unlisted file, a changed file table', () => {
    const flipped = realCheckpoint()
    flipped.flipByte('agent/r1.a0.json', 10)
    expect(verifyCheckpoint(flipped, nodeDigest)).toMatchObject({
      valid: false,
      publisher: 'nemo-rl',
      problems: expect.arrayContaining([
        expect.objectContaining({ code: 'digest_mismatch', path: 'agent/r1.a0.json' }),
      ]) as unknown,
    })
    const missing = realCheckpoint()
    missing.remove('resources/counter/r4.a0.json')
    expect(verifyCheckpoint(missing, nodeDigest).problems.map((p) => p.code)).toContain(
      'missing_file',
    )
    const extra = realCheckpoint()
    extra.putRaw('resources/counter/r9.a0.json', encodeUtf8('{}'))
    expect(verifyCheckpoint(extra, nodeDigest).problems).toContainEqual(
      expect.objectContaining({ code: 'unlisted_file', path: 'resources/counter/r9.a0.json' }),
    )
    const table = realCheckpoint()
    const manifest = JSON.parse(
      new TextDecoder().decode(table.readFile(AGGREGATE_MANIFEST_PATH)),
    ) as { files: Record<string, string> }
    manifest.files['agent/r1.a0.json'] = '0'.repeat(64)
    table.putRaw(AGGREGATE_MANIFEST_PATH, encodeUtf8(JSON.stringify(manifest, null, 2)))
    expect(verifyCheckpoint(table, nodeDigest).problems.map((p) => p.code)).toEqual(
      expect.arrayContaining(['integrity_mismatch', 'digest_mismatch']),
    )
  })

  it('[wire.nemo-rl-checkpoint] a Cutover commit torn after its aggregate stays invalid: its checkpoint.json and token-store manifest are missing (publisher cutover)', () => {
    const dir = new MemoryCheckpointDirectory()
    const sample = createSampleCheckpoint(6)
    expect(commitSampleCheckpoint(dir, nodeDigest, sample).ok).toBe(true)
    dir.remove(CHECKPOINT_MARKER_PATH)
    dir.remove(TOKEN_STORE_MANIFEST_PATH)
    const report = verifyCheckpoint(dir, nodeDigest)
    expect(report.publisher).toBe('cutover')
    expect(report.valid).toBe(false)
    expect(report.problems.map((p) => [p.code, p.path])).toEqual([
      ['missing_manifest', CHECKPOINT_MARKER_PATH],
      ['missing_manifest', TOKEN_STORE_MANIFEST_PATH],
    ])
  })
})

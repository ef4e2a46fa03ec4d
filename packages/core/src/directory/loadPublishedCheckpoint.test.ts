import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { TOKEN_STORE_MANIFEST_PATH } from './layout.ts'
import { loadPublishedCheckpoint } from './loadPublishedCheckpoint.ts'
import { commitSampleCheckpoint, createSampleCheckpoint } from './sampleCheckpoint.ts'
import { verifyCheckpoint } from './verifyCheckpoint.ts'

const digest = nodeDigest
const CK = 'ck-sample'

function committed(): MemoryCheckpointDirectory {
  const dir = new MemoryCheckpointDirectory()
  const result = commitSampleCheckpoint(
    dir,
    digest,
    createSampleCheckpoint(6, { checkpoint_id: CK }),
  )
  expect(result.ok).toBe(true)
  return dir
}

describe('the restore gate is the one verification', () => {
  it('[restore.verifies-everything] a one-byte edit of token-store/manifest.json: verify says digest_mismatch and restore refuses it', () => {
    const dir = committed()
    // One digit of the snapshot changed, as `"tokens":7` → `6` was in the campaign.
    const bytes = dir.readFile(TOKEN_STORE_MANIFEST_PATH) as Uint8Array
    const text = new TextDecoder().decode(bytes)
    const from = text.indexOf('"snapshot"')
    const at = from + (/[0-9]/.exec(text.slice(from))?.index as number)
    bytes[at] = bytes[at] === 0x39 ? 0x38 : (bytes[at] as number) + 1
    dir.putRaw(TOKEN_STORE_MANIFEST_PATH, bytes)

    const report = verifyCheckpoint(dir, digest)
    expect(report.valid).toBe(false)
    expect(report.problems.map((p) => [p.code, p.path])).toContainEqual([
      'digest_mismatch',
      TOKEN_STORE_MANIFEST_PATH,
    ])
    const restore = loadPublishedCheckpoint(dir, digest, CK)
    expect(restore.ok).toBe(false)
    if (!restore.ok) {
      expect(restore.error.code).toBe('invalid_request')
      expect(restore.error.message).toContain(TOKEN_STORE_MANIFEST_PATH)
    }
  })

  it('[restore.verifies-everything] a temp file a killed writer left beside the token store is refused by both, naming it', () => {
    const dir = committed()
    const temp = 'token-store/.cutover-tmp-manifest.json-4242-1'
    dir.putRaw(temp, new TextEncoder().encode('{"half":'))
    expect(verifyCheckpoint(dir, digest).problems.map((p) => [p.code, p.path])).toEqual([
      ['unlisted_file', temp],
    ])
    const restore = loadPublishedCheckpoint(dir, digest, CK)
    expect(restore.ok ? null : restore.error.message).toContain(temp)
  })

  it('[restore.verifies-everything] for a flipped byte in every file, at its start and its end, verify and restore agree', () => {
    const paths = committed()
      .list()
      .map((e) => e.path)
    expect(paths.length).toBeGreaterThan(10)
    for (const path of paths) {
      for (const index of [0, -1]) {
        const dir = committed()
        const size = (dir.readFile(path) as Uint8Array).length
        dir.flipByte(path, index < 0 ? size - 2 : index)
        const valid = verifyCheckpoint(dir, digest).valid
        const restored = loadPublishedCheckpoint(dir, digest, CK).ok
        expect({ path, index, restored }).toEqual({ path, index, restored: valid })
        expect(valid, path).toBe(false)
      }
    }
  })
})

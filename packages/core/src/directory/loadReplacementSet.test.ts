import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { commitAgentNamespace } from './commitAgentNamespace.ts'
import { commitResourcesNamespace } from './commitResourcesNamespace.ts'
import { agentRecordPath, resourcesSnapshotPath } from './layout.ts'
import { loadReplacementSet } from './loadReplacementSet.ts'
import { createSampleCheckpoint } from './sampleCheckpoint.ts'

const digest = nodeDigest
const sample = createSampleCheckpoint(7)
const blackjack = sample.snapshots['blackjack'] ?? []

function directory(snapshots = blackjack, withAgent = true) {
  const dir = new MemoryCheckpointDirectory()
  if (withAgent)
    commitAgentNamespace(dir, digest, {
      checkpoint_id: 'ckpt-1',
      instance_name: 'agent',
      records: sample.records,
    })
  commitResourcesNamespace(dir, digest, {
    server_name: 'blackjack',
    checkpoint_id: 'ckpt-1',
    snapshots,
  })
  return dir
}

describe('loadReplacementSet', () => {
  it('[restore-all-or-nothing] returns the whole verified set when it matches the agent boundaries', () => {
    const loaded = loadReplacementSet(directory(), digest, 'blackjack')
    expect(loaded.ok && loaded.value.snapshots).toEqual(blackjack)
    expect(loaded.ok && loaded.value.source_checkpoint_id).toBe('ckpt-1')
  })

  it('[restore-all-or-nothing] a missing session or a different revision refuses the whole set', () => {
    const [first, ...rest] = blackjack
    if (!first) throw new Error('fixture')
    const short = loadReplacementSet(directory(rest), digest, 'blackjack')
    expect(!short.ok && short.error.code).toBe('resource_revision_mismatch')
    expect(!short.ok && short.error.problems.map((p) => [p.code, p.path])).toEqual([
      ['incomplete_set', agentRecordPath(first)],
    ])
    const moved = loadReplacementSet(
      directory([{ ...first, state_revision: 99 }, ...rest]),
      digest,
      'blackjack',
    )
    expect(!moved.ok && moved.error.problems.map((p) => [p.code, p.path])).toEqual([
      ['revision_mismatch', resourcesSnapshotPath('blackjack', first)],
    ])
  })

  it('[restore-all-or-nothing] without D/agent only the namespace itself is verified; a corrupt file refuses', () => {
    expect(loadReplacementSet(directory(blackjack.slice(1), false), digest, 'blackjack').ok).toBe(
      true,
    )
    const dir = directory()
    const first = blackjack[0]
    if (!first) throw new Error('fixture')
    dir.flipByte(resourcesSnapshotPath('blackjack', first), 2)
    const refused = loadReplacementSet(dir, digest, 'blackjack')
    expect(!refused.ok && refused.error.code).toBe('resources_checkpoint_error')
  })
})

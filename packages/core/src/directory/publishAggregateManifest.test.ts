import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { ENV_NAMES } from '../contracts/environments.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { commitAgentNamespace } from './commitAgentNamespace.ts'
import { commitLedgerNamespace } from './commitLedgerNamespace.ts'
import { commitResourcesNamespace } from './commitResourcesNamespace.ts'
import { AGGREGATE_MANIFEST_PATH, POLICY_SERVER_NAME } from './layout.ts'
import type { AggregateInput } from './publishAggregateManifest.ts'
import { publishAggregateManifest, publishAggregateSteps } from './publishAggregateManifest.ts'
import { createSampleCheckpoint } from './sampleCheckpoint.ts'
import type { VerifyProgress } from './verifySteps.ts'
import { VERIFY_BATCH_FILES } from './verifySteps.ts'

/**
 * A directory holding every participant namespace of a sample checkpoint, not yet sealed by an
 * aggregate.
 */
function committedNamespaces(rollouts: number): {
  dir: MemoryCheckpointDirectory
  input: AggregateInput
} {
  const sample = createSampleCheckpoint(rollouts)
  const dir = new MemoryCheckpointDirectory({ location: 'mem://publish' })
  const checkpoint_id = sample.checkpoint_id
  const agent = commitAgentNamespace(dir, nodeDigest, {
    checkpoint_id,
    instance_name: 'agent',
    records: sample.records,
  })
  if (!agent.ok) throw new Error(agent.error.message)
  const ledger = commitLedgerNamespace(dir, nodeDigest, {
    server_name: POLICY_SERVER_NAME,
    checkpoint_id,
    rollouts: sample.lineage,
    tombstones: [],
    source_attempts: sample.records.map((r) => ({
      rollout_id: r.rollout_id,
      attempt_index: r.attempt_index,
    })),
    continuation_roots: agent.value.continuation_roots,
  })
  if (!ledger.ok) throw new Error(ledger.error.message)
  for (const server of ENV_NAMES) {
    const r = commitResourcesNamespace(dir, nodeDigest, {
      server_name: server,
      checkpoint_id,
      snapshots: sample.snapshots[server] ?? [],
    })
    if (!r.ok) throw new Error(r.error.message)
  }
  const live_membership = sample.records.map((r) => ({
    rollout_id: r.rollout_id,
    attempt_index: r.attempt_index,
    state: 'running' as const,
  }))
  return {
    dir,
    input: {
      checkpoint_id,
      participants: sample.participants,
      participant_results: {},
      live_membership,
    },
  }
}

/**
 * Runs the stepped publish for at most `limit` batches; the batches it yielded and its result when
 * it finished.
 */
function drive(dir: MemoryCheckpointDirectory, input: AggregateInput, limit = Infinity) {
  const steps = publishAggregateSteps(dir, nodeDigest, input)
  const batches: VerifyProgress[] = []
  for (;;) {
    if (batches.length >= limit) return { batches, result: undefined }
    const next = steps.next()
    if (next.done === true) return { batches, result: next.value }
    batches.push(next.value)
  }
}

describe('publishAggregateSteps', () => {
  it('[controller.publish-last] [manifest-last] a publish stopped after any batch has written nothing: no aggregate manifest', () => {
    const { dir, input } = committedNamespaces(300)
    const files = dir.list().length
    const whole = drive(committedNamespaces(300).dir, input)
    expect(whole.result?.ok).toBe(true)
    expect(whole.batches.length).toBeGreaterThan(5)
    expect(Math.max(...whole.batches.map((b) => b.files))).toBeLessThanOrEqual(VERIFY_BATCH_FILES)
    for (let k = 0; k < whole.batches.length; k++) {
      const stopped = drive(dir, input, k)
      expect(stopped.result).toBeUndefined()
      expect(dir.readFile(AGGREGATE_MANIFEST_PATH), `stopped after ${k} batches`).toBeUndefined()
      expect(dir.list().length).toBe(files)
    }
    // Run to its end, the stepped publish writes the bytes the one-step publish writes.
    expect(drive(dir, input).result?.ok).toBe(true)
    const oneStep = committedNamespaces(300)
    expect(publishAggregateManifest(oneStep.dir, nodeDigest, input).ok).toBe(true)
    expect(dir.readFile(AGGREGATE_MANIFEST_PATH)).toEqual(
      oneStep.dir.readFile(AGGREGATE_MANIFEST_PATH),
    )
  })

  it('[integrity] [restore.corrupt-refused] a corrupt file is counted by its batch and the publish is refused with its participant code; no aggregate manifest', () => {
    const { dir, input } = committedNamespaces(300)
    const victim = dir
      .list()
      .filter(
        (e) => e.path.startsWith('resources/counter/') && !e.path.endsWith('manifest.json'),
      )[7]?.path as string
    const bytes = (dir.readFile(victim) as Uint8Array).slice()
    bytes[3] = (bytes[3] as number) ^ 0x01
    dir.writeFile(victim, bytes)
    const { batches, result } = drive(dir, input)
    expect(batches.filter((b) => b.problems > 0).map((b) => [b.path, b.problems])).toEqual([
      ['resources/counter/', 1],
    ])
    expect(result?.ok).toBe(false)
    if (result?.ok === false) {
      expect(result.error.code).toBe('resources_checkpoint_error')
      expect(JSON.stringify(result.error)).toContain(victim)
    }
    expect(dir.readFile(AGGREGATE_MANIFEST_PATH)).toBeUndefined()
  })
})

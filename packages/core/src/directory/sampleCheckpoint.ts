import type { ResourceSnapshot } from '../records/ResourceSnapshot.ts'
import { RESOURCE_SNAPSHOT_SCHEMA_VERSION } from '../records/ResourceSnapshot.ts'
import type { JsonValue } from '../json.ts'
import type { Digest } from '../ports.ts'
import type { AgentBoundaryRecord } from '../records/AgentBoundaryRecord.ts'
import type { LineageRow } from '../records/LineageRow.ts'
import { captureKey } from '../records/ExecutionIdentity.ts'
import type { Result } from '../result.ts'
import { ok } from '../result.ts'
import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import { commitAgentNamespace } from './commitAgentNamespace.ts'
import { commitLedgerNamespace } from './commitLedgerNamespace.ts'
import { commitResourcesNamespace } from './commitResourcesNamespace.ts'
import { POLICY_SERVER_NAME } from './layout.ts'
import { ENV_NAMES } from '../contracts/environments.ts'
import type { AggregateParticipant } from './manifests.ts'
import type { DirectoryCommitError } from './problems.ts'
import { publishAggregateManifest } from './publishAggregateManifest.ts'
import { publishCheckpointMarker } from './publishCheckpointMarker.ts'
import { publishTokenStoreManifest } from './publishTokenStoreManifest.ts'

/**
 * A small, deterministic fleet's checkpoint content (rollouts dealt round-robin to blackjack,
 * counter, workplace, as docs/protocol.md §12.1): for tests, `cutover verify` fixtures and
 * benchmarks. It stands in for what the participants would hand the writers; it is not the
 * simulator.
 */
export interface SampleCheckpoint {
  readonly checkpoint_id: string
  readonly records: readonly AgentBoundaryRecord[]
  readonly snapshots: Readonly<Record<string, readonly ResourceSnapshot[]>>
  readonly lineage: Readonly<Record<string, readonly LineageRow[]>>
  readonly participants: readonly AggregateParticipant[]
}

/** Builds the content of `rollouts` parked rollouts at attempt `attempt`. */
export function createSampleCheckpoint(
  rollouts: number,
  options: { checkpoint_id?: string; attempt?: number } = {},
): SampleCheckpoint {
  const attempt = options.attempt ?? 0
  const width = Math.max(1, String(Math.max(0, rollouts - 1)).length)
  const records: AgentBoundaryRecord[] = []
  const snapshots: Record<string, ResourceSnapshot[]> = {
    blackjack: [],
    counter: [],
    workplace: [],
  }
  const lineage: Record<string, LineageRow[]> = {}
  for (let i = 0; i < rollouts; i++) {
    const rollout_id = `r${String(i).padStart(width, '0')}`
    const server = ENV_NAMES[i % ENV_NAMES.length] as string
    const revision = 1 + (i % 4)
    const id = { rollout_id, attempt_index: attempt }
    const calls = 1 + (i % 3)
    const rows: LineageRow[] = []
    for (let c = 0; c < calls; c++) {
      rows.push({
        model_call_id: `mc-${rollout_id}-${attempt}-${c}`,
        parent_call_id: c === 0 ? null : `mc-${rollout_id}-${attempt}-${c - 1}`,
        rollout_id,
        attempt_index: attempt,
        prev_len: c * 40,
        delta_len: 40,
        cum_len: (c + 1) * 40,
        weight_version: 1,
        staging_key: `tq/${rollout_id}/a${attempt}/${c}`,
        admitted_at: 10 * i + c,
        failure_reason: null,
      })
    }
    lineage[captureKey(id)] = rows
    records.push({
      ...id,
      boundary_index: calls - 1,
      turn_index: calls - 1,
      boundary_kind: 'turn_complete',
      output_items: [
        { type: 'message', role: 'assistant', content: `turn ${calls - 1} of ${rollout_id}` },
      ],
      usage: { input_tokens: 40 * calls, output_tokens: 12 * calls },
      last_committed_model_call_id: `mc-${rollout_id}-${attempt}-${calls - 1}`,
      resource_state_revisions: { [server]: revision },
      agent_state: { env: server, turns: calls },
      created_at: 100 + i,
    })
    const state: JsonValue =
      server === 'counter'
        ? { counter: revision * 3 }
        : server === 'blackjack'
          ? { player: [10, i % 10], dealer: [7], rng_state: [3, [i, i + 1, 624], null] }
          : {
              encoding: 'delta',
              base_sha256: '0'.repeat(64),
              changes: [{ table: 'emails', row: i }],
            }
    snapshots[server]?.push({
      schema_version: RESOURCE_SNAPSHOT_SCHEMA_VERSION,
      rollout_id,
      attempt_index: attempt,
      state_revision: revision,
      state,
      mutation_receipts: [],
      created_at: 100 + i,
    })
  }
  const participants: AggregateParticipant[] = [
    {
      participant_id: 'agent',
      name: 'agent',
      base_url: 'sim://agent',
      kind: 'agent',
      capabilities: {},
    },
    {
      participant_id: POLICY_SERVER_NAME,
      name: POLICY_SERVER_NAME,
      base_url: 'sim://policy',
      kind: 'policy_model',
      capabilities: {},
    },
    ...ENV_NAMES.map((name): AggregateParticipant => ({
      participant_id: name,
      name,
      base_url: `sim://${name}`,
      kind: 'resources',
      capabilities: {},
    })),
  ]
  return {
    checkpoint_id: options.checkpoint_id ?? 'ckpt-1',
    records,
    snapshots,
    lineage,
    participants,
  }
}

/**
 * The full commit of a sample checkpoint in protocol order (docs/protocol.md §3.6: agents → model
 * → resources → aggregate → token store → marker). A `DirectoryWriteError` is thrown through.
 */
export function commitSampleCheckpoint(
  dir: CheckpointDirectory,
  digest: Digest,
  sample: SampleCheckpoint,
): Result<{ readonly marker_digest: string }, DirectoryCommitError> {
  const checkpoint_id = sample.checkpoint_id
  const agent = commitAgentNamespace(dir, digest, {
    checkpoint_id,
    instance_name: 'agent',
    records: sample.records,
  })
  if (!agent.ok) return agent
  const ledger = commitLedgerNamespace(dir, digest, {
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
  if (!ledger.ok) return ledger
  const results: Record<string, number | string> = {
    'commit:agent': agent.value.manifest_digest,
    [`commit:${POLICY_SERVER_NAME}`]: ledger.value.manifest_digest,
  }
  for (const server of ENV_NAMES) {
    const committed = commitResourcesNamespace(dir, digest, {
      server_name: server,
      checkpoint_id,
      snapshots: sample.snapshots[server] ?? [],
    })
    if (!committed.ok) return committed
    results[`commit:${server}`] = committed.value.manifest_digest
  }
  const aggregate = publishAggregateManifest(dir, digest, {
    checkpoint_id,
    participants: sample.participants,
    participant_results: results,
    live_membership: sample.records.map((r) => ({
      rollout_id: r.rollout_id,
      attempt_index: r.attempt_index,
      state: 'running' as const,
    })),
  })
  if (!aggregate.ok) return aggregate
  const tokenStore = publishTokenStoreManifest(dir, digest, {
    checkpoint_id,
    staging_keys: ledger.value.storage_references.map((r) => r.key),
    snapshot: { rows: ledger.value.rows },
  })
  if (!tokenStore.ok) return tokenStore
  const marker = publishCheckpointMarker(dir, digest, { checkpoint_id })
  if (!marker.ok) return marker
  return ok(marker.value)
}

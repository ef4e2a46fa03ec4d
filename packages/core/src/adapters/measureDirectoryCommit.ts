import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { commitAgentNamespace } from '../directory/commitAgentNamespace.ts'
import { commitResourcesNamespace } from '../directory/commitResourcesNamespace.ts'
import type { ResourceSnapshot } from '../records/ResourceSnapshot.ts'
import { RESOURCE_SNAPSHOT_SCHEMA_VERSION } from '../records/ResourceSnapshot.ts'
import type { AgentBoundaryRecord } from '../records/AgentBoundaryRecord.ts'
import { publishAggregateManifest } from '../directory/publishAggregateManifest.ts'
import { verifyCheckpoint } from '../directory/verifyCheckpoint.ts'
import { NodeCheckpointDirectory } from './NodeCheckpointDirectory.ts'
import { nodeDigest } from './nodeDigest.ts'

/** Figures of one measured commit (wall-clock ms: a benchmark, never part of a trace). */
export interface DirectoryCommitFigures {
  readonly sessions: number
  readonly snapshot_bytes: number
  readonly resources_commit_ms: number
  readonly aggregate_ms: number
  readonly verify_ms: number
  readonly files_written: number
  readonly folder_fsyncs: number
}

/**
 * Commits `sessions` Blackjack-sized snapshots (a full 624-word RNG state each) to one resources
 * namespace on the real file system, plus the agent boundaries that reconcile them, then publishes
 * the aggregate and verifies the directory, timing each step. For `cutover bench` and the report.
 */
export function measureDirectoryCommit(
  sessions = 1000,
  root = mkdtempSync(join(tmpdir(), 'cutover-bench-')),
): DirectoryCommitFigures {
  const checkpoint_id = 'bench-1'
  const width = String(sessions - 1).length
  const snapshots: ResourceSnapshot[] = []
  const records: AgentBoundaryRecord[] = []
  for (let i = 0; i < sessions; i++) {
    const rollout_id = `r${String(i).padStart(width, '0')}`
    const words = Array.from(
      { length: 624 },
      (_, k) => (Math.imul(i + 1, 2654435761) ^ Math.imul(k + 1, 40503)) >>> 0,
    )
    snapshots.push({
      schema_version: RESOURCE_SNAPSHOT_SCHEMA_VERSION,
      rollout_id,
      attempt_index: 0,
      state_revision: 2,
      state: { player: [10, 6], dealer: [9], rng_state: [3, [...words, 624], null] },
      mutation_receipts: [],
      created_at: i,
    })
    records.push({
      rollout_id,
      attempt_index: 0,
      boundary_index: 1,
      turn_index: 1,
      boundary_kind: 'turn_complete',
      output_items: [],
      usage: null,
      last_committed_model_call_id: null,
      resource_state_revisions: { blackjack: 2 },
      agent_state: {},
      created_at: i,
    })
  }
  try {
    const dir = new NodeCheckpointDirectory(root)
    const agent = commitAgentNamespace(dir, nodeDigest, {
      checkpoint_id,
      instance_name: 'agent',
      records,
    })
    if (!agent.ok) throw new Error(agent.error.message)
    const before = dir.stats
    const t0 = performance.now()
    const committed = commitResourcesNamespace(dir, nodeDigest, {
      server_name: 'blackjack',
      checkpoint_id,
      snapshots,
    })
    const t1 = performance.now()
    if (!committed.ok) throw new Error(committed.error.message)
    const aggregate = publishAggregateManifest(dir, nodeDigest, {
      checkpoint_id,
      participants: [
        {
          participant_id: 'agent',
          name: 'agent',
          base_url: 'bench://agent',
          kind: 'agent',
          capabilities: {},
        },
        {
          participant_id: 'blackjack',
          name: 'blackjack',
          base_url: 'bench://blackjack',
          kind: 'resources',
          capabilities: {},
        },
      ],
      participant_results: {},
      live_membership: [],
    })
    const t2 = performance.now()
    if (!aggregate.ok) throw new Error(aggregate.error.message)
    const report = verifyCheckpoint(
      new NodeCheckpointDirectory(root, { create: false }),
      nodeDigest,
    )
    const t3 = performance.now()
    // Without the marker and token store the only expected problems are those two manifests.
    if (report.problems.some((p) => p.code !== 'missing_manifest'))
      throw new Error(JSON.stringify(report.problems.slice(0, 3)))
    const after = dir.stats
    return {
      sessions,
      snapshot_bytes:
        dir.list().find((e) => e.path.startsWith('resources/blackjack/r'))?.bytes ?? 0,
      resources_commit_ms: Math.round(t1 - t0),
      aggregate_ms: Math.round(t2 - t1),
      verify_ms: Math.round(t3 - t2),
      files_written: after.writes - before.writes,
      folder_fsyncs: after.folderSyncs - before.folderSyncs,
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

const isEntry =
  process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))
if (isEntry) {
  const sessions = Number(process.argv[2] ?? 1000)
  process.stdout.write(`${JSON.stringify(measureDirectoryCommit(sessions))}\n`)
}

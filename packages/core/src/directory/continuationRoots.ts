import { canonicalJson } from '../json.ts'
import type { Digest } from '../ports.ts'
import type { AgentBoundaryRecord } from '../records/AgentBoundaryRecord.ts'
import type { ContinuationRoot } from '../records/ContinuationRoot.ts'
import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import { captureKey } from '../records/ExecutionIdentity.ts'

/** Orders identities by rollout id, then attempt: the order of every identity list in D. */
export const compareIdentity = (a: ExecutionIdentity, b: ExecutionIdentity): number =>
  a.rollout_id < b.rollout_id
    ? -1
    : a.rollout_id > b.rollout_id
      ? 1
      : a.attempt_index - b.attempt_index

/**
 * The agent's continuation index (docs/protocol.md §5.2): one root per boundary record that names a
 * committed model call, sorted. The model ledger copies lineage only for these roots.
 */
export function continuationRootsOf(records: readonly AgentBoundaryRecord[]): ContinuationRoot[] {
  const roots: ContinuationRoot[] = []
  for (const r of records) {
    if (r.last_committed_model_call_id === null) continue
    roots.push({
      schema_version: 1,
      rollout_id: r.rollout_id,
      attempt_index: r.attempt_index,
      capture_key: captureKey(r),
      last_committed_model_call_id: r.last_committed_model_call_id,
      resource_state_revisions: r.resource_state_revisions,
    })
  }
  return roots.sort(compareIdentity)
}

/**
 * sha256 of the canonical JSON of the sorted roots: binds a ledger manifest to the agent's records.
 */
export function continuationRootsDigest(
  digest: Digest,
  roots: readonly ContinuationRoot[],
): string {
  return digest.sha256Hex(canonicalJson([...roots].sort(compareIdentity)))
}

import type { JsonValue } from '../json.ts'

/** `(rollout_id, attempt_index)`: one physical dispatch of a logical rollout (PROTOCOL.md §2.1). */
export interface ExecutionIdentity {
  readonly rollout_id: string
  readonly attempt_index: number
}

/** `<rollout_id>.a<attempt>`: the identity as a file stem and URL segment. */
export const executionKey = (id: ExecutionIdentity): string => `${id.rollout_id}.a${id.attempt_index}`

/** `<rollout_id>.a<attempt>` → identity (the inverse of `executionKey`). */
export function parseKey(key: string): ExecutionIdentity {
  const at = key.lastIndexOf('.a')
  return { rollout_id: key.slice(0, at), attempt_index: Number(key.slice(at + 2)) }
}

/** Capture key: the rollout id for attempt 0, else `<rollout_id>-a<attempt>` (PROTOCOL.md §2.1). */
export const captureKey = (id: ExecutionIdentity): string =>
  id.attempt_index === 0 ? id.rollout_id : `${id.rollout_id}-a${id.attempt_index}`

/** An agent's committed turn boundary (PROTOCOL.md §3.3, schema 1 on disk). */
export interface AgentBoundaryRecord {
  readonly rollout_id: string
  readonly attempt_index: number
  readonly boundary_index: number
  readonly turn_index: number
  readonly boundary_kind: 'turn_complete'
  readonly output_items: readonly JsonValue[]
  readonly usage: JsonValue
  readonly last_committed_model_call_id: string | null
  readonly resource_state_revisions: { readonly [serverName: string]: number }
  readonly agent_state: { readonly [key: string]: JsonValue }
  readonly created_at: number
}

/** One token-free lineage row of the policy model's ledger (PROTOCOL.md §5.1, simulator subset). */
export interface LineageRow {
  readonly model_call_id: string
  readonly parent_call_id: string | null
  readonly rollout_id: string
  readonly attempt_index: number
  readonly prev_len: number
  readonly delta_len: number
  readonly cum_len: number
  readonly weight_version: number
  readonly staging_key: string
  readonly admitted_at: number
  readonly failure_reason: string | null
}

/** A continuation root: an agent record that names a committed model call (PROTOCOL.md §5.2). */
export interface ContinuationRoot {
  readonly schema_version: 1
  readonly rollout_id: string
  readonly attempt_index: number
  readonly capture_key: string
  readonly last_committed_model_call_id: string
  readonly resource_state_revisions: { readonly [serverName: string]: number }
}

import type { CutDisposition, CutKind, GenerationCutProof } from '../contracts/generationCuts.ts'
import type { CutoverError } from '../contracts/errors.ts'
import { cutoverError } from '../contracts/errors.ts'
import { canonicalJson } from '../json.ts'
import type { Digest } from '../ports.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'

/**
 * The generation-cut wire (docs/protocol.md §11.3, the stack's `generation_cut.py` names): the
 * model's per-worker inventory, each worker's receipt, and the proof the model aggregates.
 */

/** One admitted call of the inventory. */
export interface GenerationCutPrefix {
  readonly ticket_id: string
  readonly rollout_id: string
  readonly attempt: number
  readonly model_call_id: string
  readonly admitted_at: number
}

/** The calls one worker must cut, bound to one checkpoint by digest (prefixes sorted by ticket). */
export interface GenerationCutInventory {
  readonly checkpoint_id: string
  readonly server_name: string
  readonly active_prefixes: readonly GenerationCutPrefix[]
  readonly inventory_digest: string
}

/** The worker's durable outcome for one inventory entry. */
export interface GenerationCutPrefixAck extends GenerationCutPrefix {
  readonly disposition: 'durable_prefix' | 'durable_failure'
  readonly cut_kind?: CutKind
  readonly frozen_buffer_id?: string
  readonly staging_keys?: readonly string[]
  readonly prefix_token_count?: number
  readonly prefix_digest?: string
  readonly effective_output_limit?: number
  readonly terminal_finish_reason?: 'stop' | 'length'
}

/** A worker's receipt covering every entry of its inventory exactly once. */
export interface GenerationCutReceipt {
  readonly checkpoint_id: string
  readonly cut_id: string
  readonly inventory_digest: string
  readonly inventory: GenerationCutInventory
  readonly backend_snapshot_id: string
  readonly prefixes: readonly GenerationCutPrefixAck[]
}

/** One worker's acknowledgement of the cut round, as the model aggregates it. */
export interface WorkerCutAck {
  readonly worker: number
  readonly cut_id: string
  readonly inventory_digest: string
  readonly membership_digest: string
  readonly dispositions: readonly {
    readonly ticket_id: string
    readonly disposition: CutDisposition
  }[]
}

const byTicket = (a: { ticket_id: string }, b: { ticket_id: string }): number => {
  const x = Number(a.ticket_id.slice(1))
  const y = Number(b.ticket_id.slice(1))
  return x !== y && Number.isFinite(x) && Number.isFinite(y)
    ? x - y
    : a.ticket_id < b.ticket_id
      ? -1
      : a.ticket_id > b.ticket_id
        ? 1
        : 0
}

/**
 * Builds an inventory: prefixes sorted by ticket, digest over the canonical JSON of the other three
 * fields.
 */
export function buildInventory(
  digest: Digest,
  checkpointId: string,
  serverName: string,
  prefixes: readonly GenerationCutPrefix[],
): GenerationCutInventory {
  const active_prefixes = [...prefixes].sort(byTicket)
  const inventory_digest = digest.sha256Hex(
    canonicalJson({ checkpoint_id: checkpointId, server_name: serverName, active_prefixes }),
  )
  return { checkpoint_id: checkpointId, server_name: serverName, active_prefixes, inventory_digest }
}

/**
 * Refuses a receipt that is not an exact, complete answer to `inventory`: another inventory, a
 * ticket missed or repeated, a changed identity, or prefix evidence on a failure (and none on a
 * prefix).
 */
export function validateReceipt(
  receipt: GenerationCutReceipt,
  inventory: GenerationCutInventory,
): Result<void, CutoverError> {
  const refuse = (message: string) =>
    err(cutoverError('ledger_mismatch', `generation-cut receipt ${receipt.cut_id}: ${message}`))
  if (
    receipt.inventory_digest !== inventory.inventory_digest ||
    canonicalJson(receipt.inventory) !== canonicalJson(inventory)
  )
    return refuse('answers a different inventory')
  const admitted = new Map(inventory.active_prefixes.map((p) => [p.ticket_id, p]))
  const seen = new Set<string>()
  for (const ack of receipt.prefixes) {
    const call = admitted.get(ack.ticket_id)
    if (call === undefined || seen.has(ack.ticket_id))
      return refuse(`ticket ${ack.ticket_id} is not in the inventory or is answered twice`)
    seen.add(ack.ticket_id)
    if (
      ack.rollout_id !== call.rollout_id ||
      ack.attempt !== call.attempt ||
      ack.model_call_id !== call.model_call_id ||
      ack.admitted_at !== call.admitted_at
    )
      return refuse(`identity differs for ticket ${ack.ticket_id}`)
    const evidence =
      ack.cut_kind !== undefined &&
      ack.frozen_buffer_id !== undefined &&
      ack.prefix_token_count !== undefined &&
      ack.prefix_digest !== undefined &&
      (ack.staging_keys ?? []).length > 0
    if (ack.disposition === 'durable_prefix' && !evidence)
      return refuse(`durable_prefix for ${ack.ticket_id} lacks its evidence`)
    if (
      ack.disposition === 'durable_failure' &&
      (ack.cut_kind !== undefined || (ack.staging_keys ?? []).length > 0)
    )
      return refuse(`durable_failure for ${ack.ticket_id} carries prefix evidence`)
  }
  if (seen.size !== admitted.size) return refuse('does not cover every call of the inventory')
  return ok(undefined)
}

/** The cut proof: every worker's acknowledgement, sorted by worker, digested as canonical JSON. */
export function aggregateCutProof(
  digest: Digest,
  cutId: string,
  inventoryDigest: string,
  membershipDigest: string,
  acks: readonly WorkerCutAck[],
): GenerationCutProof {
  const sorted = [...acks].sort((a, b) => a.worker - b.worker)
  return {
    cut_id: cutId,
    inventory_digest: inventoryDigest,
    membership_digest: membershipDigest,
    proof_digest: digest.sha256Hex(canonicalJson(sorted)),
    workers: sorted.map((a) => a.worker),
  }
}

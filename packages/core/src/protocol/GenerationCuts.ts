import type { CutDisposition, GenerationCutProof } from '../contracts/generationCuts.ts'
import type { CutoverError } from '../contracts/errors.ts'
import { cutoverError } from '../contracts/errors.ts'
import type { GenerationCutEntry } from '../directory/manifests.ts'
import type { RestoredPrefix } from '../directory/tokenSegments.ts'
import { canonicalJson } from '../json.ts'
import type { Digest } from '../ports.ts'
import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import type {
  GenerationCutInventory,
  GenerationCutPrefixAck,
  GenerationCutReceipt,
  WorkerCutAck,
} from './generationCut.ts'
import { aggregateCutProof, buildInventory, validateReceipt } from './generationCut.ts'
import { tokenDigest } from './generationTokens.ts'

/** How the model classifies a frozen ticket before the cut round (docs/protocol.md §11.2). */
export type TicketClass = 'cut' | 'excluded' | 'not_started'

/** One frozen admission ticket and, once known, its disposition. */
export interface FrozenTicket {
  readonly ticket: string
  readonly id: ExecutionIdentity
  readonly model_call_id: string
  readonly worker: number
  readonly admitted_at: number
  disposition: CutDisposition | null
  ack: GenerationCutPrefixAck | null
}

/** A restored cut and its lease (claim → consume; released when its worker disconnects). */
export interface RestoredCut {
  readonly entry: GenerationCutEntry
  readonly tokens: readonly number[]
  lease: { readonly worker: number; readonly model_call_id: string } | null
  consumed: boolean
}

/** Reads staged token ids by staging key (the token store, as the model sees it before commit). */
export interface TokenReader {
  tokens(stagingKey: string): readonly number[] | undefined
}

/**
 * The policy model's generation-safe cut bookkeeping (docs/protocol.md §11.3–§11.5): the frozen
 * tickets and their egress fence, one inventory per managed worker, each worker's receipt checked
 * against it, the cut proof once every worker answered; before commit the validation of every
 * prefix against the token store; after restore the restored cuts and their leases.
 */
export class GenerationCuts {
  readonly #digest: Digest
  readonly #serverName: string
  #checkpoint: string | null = null
  readonly #frozen = new Map<string, FrozenTicket>()
  readonly #inventories = new Map<number, GenerationCutInventory>()
  readonly #acks = new Map<number, WorkerCutAck>()
  #proof: GenerationCutProof | null = null
  readonly #restored = new Map<string, RestoredCut>()

  constructor(digest: Digest, serverName: string) {
    this.#digest = digest
    this.#serverName = serverName
  }

  /** True while a cut round's tickets are frozen (from the swap until the fence is released). */
  get active(): boolean {
    return this.#checkpoint !== null
  }
  get proof(): GenerationCutProof | null {
    return this.#proof
  }
  /** The checkpoint whose cut round is in progress (null once its fence was released). */
  get checkpoint(): string | null {
    return this.#checkpoint
  }
  /** The frozen tickets, by ticket order. */
  frozen(): readonly FrozenTicket[] {
    return [...this.#frozen.values()]
  }
  /** True when `ticket` is frozen and its egress still fenced. */
  isFenced(ticket: string): boolean {
    return this.#frozen.has(ticket)
  }
  /**
   * True when `ticket` is frozen and has reached its disposition (it no longer blocks `paused`).
   */
  settled(ticket: string): boolean {
    return (this.#frozen.get(ticket)?.disposition ?? null) !== null
  }
  /** Frozen tickets still without a disposition. */
  get pending(): number {
    let n = 0
    for (const t of this.#frozen.values()) if (t.disposition === null) n++
    return n
  }

  /**
   * Freezes the tickets and fences their egress; the model classifies the ones it does not send
   * (`excluded`, `not_started`); the rest go into one inventory per worker (every managed worker
   * gets one). The proof is ready at once when no worker has an inventory.
   */
  freeze(
    checkpointId: string,
    tickets: readonly (Omit<FrozenTicket, 'disposition' | 'ack'> & {
      readonly class: TicketClass
    })[],
    managedWorkers: readonly number[] = [],
  ): ReadonlyMap<number, GenerationCutInventory> {
    this.#checkpoint = checkpointId
    this.#frozen.clear()
    this.#inventories.clear()
    this.#acks.clear()
    this.#proof = null
    // With a coordinator every managed worker gets an inventory (maybe empty) and acknowledges it.
    const perWorker = new Map<number, FrozenTicket[]>(managedWorkers.map((k) => [k, []]))
    for (const t of tickets) {
      const own: CutDisposition | null =
        t.class === 'excluded' ? 'excluded' : t.class === 'not_started' ? 'not_started' : null
      const frozen: FrozenTicket = {
        ticket: t.ticket,
        id: t.id,
        model_call_id: t.model_call_id,
        worker: t.worker,
        admitted_at: t.admitted_at,
        disposition: own,
        ack: null,
      }
      this.#frozen.set(t.ticket, frozen)
      if (own === null) perWorker.set(t.worker, [...(perWorker.get(t.worker) ?? []), frozen])
    }
    for (const [worker, list] of [...perWorker.entries()].sort((a, b) => a[0] - b[0])) {
      const prefixes = list.map((t) => ({
        ticket_id: t.ticket,
        rollout_id: t.id.rollout_id,
        attempt: t.id.attempt_index,
        model_call_id: t.model_call_id,
        admitted_at: t.admitted_at,
      }))
      this.#inventories.set(
        worker,
        buildInventory(this.#digest, checkpointId, this.#serverName, prefixes),
      )
    }
    if (this.#inventories.size === 0)
      this.#proof = aggregateCutProof(
        this.#digest,
        `${checkpointId}/cut`,
        this.#inventoryDigest(),
        this.#membershipDigest(),
        [],
      )
    return this.#inventories
  }

  #inventoryDigest(): string {
    return this.#digest.sha256Hex(
      canonicalJson(
        [...this.#inventories.entries()]
          .sort((a, b) => a[0] - b[0])
          .map(([, inv]) => inv.inventory_digest),
      ),
    )
  }
  #membershipDigest(): string {
    return this.#digest.sha256Hex(
      canonicalJson(
        [...this.#frozen.values()].map((t) => ({
          ticket_id: t.ticket,
          rollout_id: t.id.rollout_id,
          attempt: t.id.attempt_index,
          model_call_id: t.model_call_id,
        })),
      ),
    )
  }

  /**
   * A worker's receipt: checked against its inventory, then every ticket's disposition recorded;
   * the proof once all answered.
   */
  accept(worker: number, receipt: GenerationCutReceipt): Result<WorkerCutAck, CutoverError> {
    if (this.#checkpoint !== receipt.checkpoint_id)
      return err(
        cutoverError(
          'ledger_mismatch',
          `no generation-cut round of checkpoint ${receipt.checkpoint_id} is in progress`,
        ),
      )
    const inventory = this.#inventories.get(worker)
    if (inventory === undefined)
      return err(
        cutoverError('ledger_mismatch', `worker ${worker} was sent no generation-cut inventory`),
      )
    const valid = validateReceipt(receipt, inventory)
    if (!valid.ok) return valid
    const dispositions: { ticket_id: string; disposition: CutDisposition }[] = []
    for (const a of receipt.prefixes) {
      const t = this.#frozen.get(a.ticket_id) as FrozenTicket
      t.ack = a
      t.disposition =
        a.disposition === 'durable_prefix' && a.cut_kind === 'terminal_completion'
          ? 'completed_durable'
          : a.disposition
      dispositions.push({ ticket_id: a.ticket_id, disposition: t.disposition })
    }
    const ack: WorkerCutAck = {
      worker,
      cut_id: receipt.cut_id,
      inventory_digest: inventory.inventory_digest,
      membership_digest: this.#membershipDigest(),
      dispositions,
    }
    this.#acks.set(worker, ack)
    if (this.#acks.size === this.#inventories.size)
      this.#proof = aggregateCutProof(
        this.#digest,
        `${this.#checkpoint ?? ''}/cut`,
        this.#inventoryDigest(),
        this.#membershipDigest(),
        [...this.#acks.values()],
      )
    return ok(ack)
  }

  /**
   * Before commit: every prefix ack's staging keys exist in the token store and hold exactly
   * `prefix_token_count` ids with `prefix_digest`, and its identity is the ticket's
   * (`ledger_mismatch`).
   */
  validate(store: TokenReader): Result<void, CutoverError> {
    for (const t of this.#frozen.values()) {
      const a = t.ack
      if (a === null || a.disposition !== 'durable_prefix') continue
      if (
        a.rollout_id !== t.id.rollout_id ||
        a.attempt !== t.id.attempt_index ||
        a.model_call_id !== t.model_call_id
      )
        return err(
          cutoverError(
            'ledger_mismatch',
            `generation cut of ticket ${t.ticket}: lineage identity differs from the ticket's`,
          ),
        )
      const tokens: number[] = []
      for (const key of a.staging_keys ?? []) {
        const staged = store.tokens(key)
        if (staged === undefined)
          return err(
            cutoverError(
              'ledger_mismatch',
              `generation cut of ${t.model_call_id}: staging key ${key} is not in the token store`,
            ),
          )
        tokens.push(...staged)
      }
      if (
        tokens.length !== a.prefix_token_count ||
        tokenDigest(this.#digest, tokens) !== a.prefix_digest
      )
        return err(
          cutoverError(
            'ledger_mismatch',
            `generation cut of ${t.model_call_id}: the token store holds ${tokens.length} ids not matching prefix_token_count ${a.prefix_token_count ?? '?'} / prefix_digest`,
          ),
        )
    }
    return ok(undefined)
  }

  /**
   * The ledger's `generation_cut` records of the frozen tickets `keep` selects (the continued
   * rollouts').
   */
  records(keep: (id: ExecutionIdentity) => boolean): GenerationCutEntry[] {
    const out: GenerationCutEntry[] = []
    for (const t of this.#frozen.values()) {
      if (!keep(t.id) || t.disposition === null) continue
      const a = t.ack
      const evidence =
        a !== null && a.disposition === 'durable_prefix'
          ? {
              cut_kind: a.cut_kind,
              staging_keys: [...(a.staging_keys ?? [])],
              prefix_token_count: a.prefix_token_count,
              prefix_digest: a.prefix_digest,
              effective_output_limit: a.effective_output_limit,
            }
          : {}
      out.push({
        rollout_id: t.id.rollout_id,
        attempt_index: t.id.attempt_index,
        model_call_id: t.model_call_id,
        disposition: t.disposition,
        ...evidence,
      } as GenerationCutEntry)
    }
    return out
  }

  /** The checkpoint's disposition is known: the fence lifts; returns the tickets it held. */
  release(): readonly FrozenTicket[] {
    const held = this.frozen()
    this.#checkpoint = null
    this.#frozen.clear()
    return held
  }

  // ---- after restore ----

  /** Installs the verified restored cuts (restore verified every segment before this). */
  install(prefixes: readonly RestoredPrefix[]): void {
    for (const p of prefixes)
      this.#restored.set(p.entry.model_call_id, {
        entry: p.entry,
        tokens: p.tokens,
        lease: null,
        consumed: false,
      })
  }
  get restoredCount(): number {
    return this.#restored.size
  }
  /**
   * The restored cut attempt `id` (N+1) continues, if any: the cut of attempt N of the same
   * rollout.
   */
  restoredFor(id: ExecutionIdentity): RestoredCut | undefined {
    for (const c of this.#restored.values())
      if (c.entry.rollout_id === id.rollout_id && c.entry.attempt_index + 1 === id.attempt_index)
        return c
    return undefined
  }

  /**
   * Leases the restored cut of `cutCallId` to `(worker, modelCallId)`; a second claimant or a
   * consumed cut is refused.
   */
  claim(cutCallId: string, worker: number, modelCallId: string): Result<RestoredCut, CutoverError> {
    const c = this.#restored.get(cutCallId)
    if (c === undefined)
      return err(cutoverError('invalid_request', `no restored cut of ${cutCallId}`))
    if (c.consumed)
      return err(
        cutoverError(
          'restored_cut_consumed',
          `the restored cut of ${cutCallId} was already consumed`,
        ),
      )
    if (c.lease !== null && (c.lease.worker !== worker || c.lease.model_call_id !== modelCallId))
      return err(
        cutoverError(
          'restored_cut_already_owned',
          `the restored cut of ${cutCallId} is leased to worker ${c.lease.worker} (${c.lease.model_call_id})`,
        ),
      )
    c.lease = { worker, model_call_id: modelCallId }
    return ok(c)
  }

  /** The lease holder prefilled the prefix: the cut is consumed (claimable never again). */
  consume(cutCallId: string, worker: number): Result<void, CutoverError> {
    const c = this.#restored.get(cutCallId)
    if (c === undefined || c.lease === null || c.lease.worker !== worker)
      return err(cutoverError('invalid_request', `worker ${worker} holds no lease on ${cutCallId}`))
    c.consumed = true
    return ok(undefined)
  }

  /** A disconnected worker's unconsumed leases are released. */
  releaseWorker(worker: number): number {
    let n = 0
    for (const c of this.#restored.values())
      if (c.lease !== null && c.lease.worker === worker && !c.consumed) {
        c.lease = null
        n++
      }
    return n
  }
}

import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import { captureKey, executionKey } from '../records/ExecutionIdentity.ts'
import type { LineageRow } from '../records/LineageRow.ts'

/** How a new call links into its execution's lineage. */
export interface CallLink {
  readonly parent: string | null
  readonly prevLen: number
  /**
   * True when the parent is attempt N's verified last committed call (the restored-parent relay).
   */
  readonly relay: boolean
}

/**
 * The policy model's token-free lineage ledger (docs/protocol.md §5.1, §6.2): rows by capture key,
 * the last committed call per execution (later calls of an attempt link within it), and the
 * restored-parent relay (N+1's first call links to N's verified last committed call, exactly once).
 */
export class LineageLedger {
  readonly #rows = new Map<string, LineageRow[]>()
  /** Last committed call per execution key. */
  readonly #lastCall = new Map<string, LineageRow>()
  /** N+1 execution key → N's verified last committed call; consumed by the first call (relay). */
  readonly #relay = new Map<string, { readonly parent: string; readonly cum_len: number }>()
  readonly #relayConsumed = new Set<string>()
  /** Teaching-mode bug `relay-applied-twice`: the relay is never marked consumed. */
  relayTwice = false

  /** Capture keys with rows. */
  get size(): number {
    return this.#rows.size
  }

  /** Every row, by capture key. */
  rows(): readonly LineageRow[] {
    const out: LineageRow[] = []
    for (const key of [...this.#rows.keys()].sort()) out.push(...(this.#rows.get(key) ?? []))
    return out
  }

  /** Rows per capture key, in insertion order. */
  byCapture(): ReadonlyMap<string, readonly LineageRow[]> {
    return this.#rows
  }

  /** The parent of the next call of `id` (consumes the relay on the first call of N+1). */
  link(id: ExecutionIdentity): CallLink {
    const key = executionKey(id)
    const last = this.#lastCall.get(key)
    const armed = this.#relay.get(key)
    // The bug: the second call of N+1 is linked to N's boundary again.
    if (
      this.relayTwice &&
      armed !== undefined &&
      last !== undefined &&
      last.parent_call_id === armed.parent
    )
      return { parent: armed.parent, prevLen: armed.cum_len, relay: true }
    if (last !== undefined)
      return { parent: last.model_call_id, prevLen: last.cum_len, relay: false }
    const source = this.#relay.get(key)
    if (source !== undefined && !this.#relayConsumed.has(key)) {
      // The cross-attempt link is consumed exactly once: the first call of N+1 only.
      this.#relayConsumed.add(key)
      return { parent: source.parent, prevLen: source.cum_len, relay: true }
    }
    return { parent: null, prevLen: 0, relay: false }
  }

  /** Custody of one completed call. */
  record(id: ExecutionIdentity, row: LineageRow): void {
    const ck = captureKey(id)
    const rows = this.#rows.get(ck)
    if (rows === undefined) this.#rows.set(ck, [row])
    else rows.push(row)
    this.#lastCall.set(executionKey(id), row)
  }

  /**
   * Installs restored rows of one capture key and arms the relay of its next attempt to the
   * boundary call (the call the agent's root names).
   */
  restore(captureKeyOf: string, rows: readonly LineageRow[], boundary: string): void {
    const first = rows[0]
    if (first === undefined) return
    this.#rows.set(captureKeyOf, [...rows])
    const boundaryRow = rows.find((r) => r.model_call_id === boundary)
    const next = executionKey({
      rollout_id: first.rollout_id,
      attempt_index: first.attempt_index + 1,
    })
    this.#relay.set(next, { parent: boundary, cum_len: boundaryRow?.cum_len ?? 0 })
  }

  /** N+1 key → parent call of every armed relay. */
  relayParents(): { [key: string]: string } {
    const relays: { [key: string]: string } = {}
    for (const [k, v] of this.#relay) relays[k] = v.parent
    return relays
  }

  /** Restored-parent relay entries: N+1 key → parent call, and whether it was consumed. */
  relays(): readonly {
    readonly key: string
    readonly parent: string
    readonly consumed: boolean
  }[] {
    return [...this.#relay.entries()].map(([key, v]) => ({
      key,
      parent: v.parent,
      consumed: this.#relayConsumed.has(key),
    }))
  }
}

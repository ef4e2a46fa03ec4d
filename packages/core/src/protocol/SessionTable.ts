import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import type { ResourceMutationReceipt } from '../records/ResourceSnapshot.ts'

/** What the resources participant tracks about one bound session. */
export interface SessionMeta {
  readonly id: ExecutionIdentity
  readonly sessionId: string
  revision: number
  readonly receipts: Map<string, ResourceMutationReceipt>
  uncertain: boolean
  restored: boolean
  /**
   * The per-session mutation lock: virtual ms until which an in-flight handler holds it, or null.
   */
  lockedUntil: number | null
  /**
   * The admitted request whose handler holds the lock; it takes effect when the lock is handed
   * over.
   */
  holder?: (() => void) | null
}

/** Bounds of the receipt history of closed sessions (docs/protocol.md §8). */
export interface ReceiptHistoryLimits {
  /** Closed sessions whose receipts stay answerable (1 024). */
  readonly retiredSessions: number
  /** Evicted sessions remembered by key (4 096); past it the history is saturated. */
  readonly evictionTombstones: number
}

export const RECEIPT_HISTORY_LIMITS: ReceiptHistoryLimits = {
  retiredSessions: 1024,
  evictionTombstones: 4096,
}

/**
 * The resources participant's sessions, kept in step in one place: environment state by session
 * id (cookie sessions without identity included), the binding of each execution key to its
 * session, and the closed (terminal) bindings whose receipts stay answerable.
 */
export class SessionTable<TSession> {
  readonly #states = new Map<string, TSession>()
  readonly #bound = new Map<string, SessionMeta>()
  /** Closed sessions with receipts, oldest first (the retired receipt history). */
  readonly #terminal = new Map<string, SessionMeta>()
  readonly #evicted = new Set<string>()
  #saturated = false
  readonly #limits: ReceiptHistoryLimits

  constructor(limits: ReceiptHistoryLimits = RECEIPT_HISTORY_LIMITS) {
    this.#limits = limits
  }

  /** Closed sessions whose receipts are still held. */
  get retiredReceiptSessions(): number {
    return this.#terminal.size
  }
  /** Evicted sessions remembered by key. */
  get evictedTombstones(): number {
    return this.#evicted.size
  }
  /**
   * True once more sessions were evicted than can be remembered: every identity is then suspect.
   */
  get saturated(): boolean {
    return this.#saturated
  }
  /**
   * True when `key`'s receipts were evicted (or the history saturated): a replay cannot be proven.
   */
  isEvicted(key: string): boolean {
    return this.#saturated || this.#evicted.has(key)
  }

  /** The environment state of session `sid`. */
  state(sid: string): TSession | undefined {
    return this.#states.get(sid)
  }

  /** Stores (or, when undefined, drops) the environment state of session `sid`. */
  setState(sid: string, session: TSession | undefined): void {
    if (session === undefined) this.#states.delete(sid)
    else this.#states.set(sid, session)
  }

  /** The session bound to execution `key`. */
  bound(key: string): SessionMeta | undefined {
    return this.#bound.get(key)
  }

  /** Bound sessions, in binding order. */
  boundSessions(): IterableIterator<SessionMeta> {
    return this.#bound.values()
  }

  get boundCount(): number {
    return this.#bound.size
  }

  /** Binds execution `key` to `meta`'s session holding `session` (a rebind keeps its place). */
  bind(key: string, meta: SessionMeta, session: TSession): void {
    this.#states.set(meta.sessionId, session)
    this.#bound.set(key, meta)
  }

  /** Drops the binding of `key`, its session state and its receipts (retired). */
  release(key: string): void {
    this.#terminal.delete(key)
    const meta = this.#bound.get(key)
    if (meta === undefined) return
    this.#bound.delete(key)
    this.#states.delete(meta.sessionId)
  }

  /**
   * The session closed: released, its receipts kept answerable under `key` while the history holds
   * it. Past `retiredSessions` the oldest closed session's receipts are evicted and its key
   * remembered; past `evictionTombstones` remembered keys the history is saturated.
   */
  close(key: string): void {
    const meta = this.#bound.get(key)
    if (meta === undefined) return
    this.release(key)
    if (meta.receipts.size === 0) return
    this.#terminal.set(key, meta)
    while (this.#terminal.size > this.#limits.retiredSessions) {
      const oldest = this.#terminal.keys().next().value as string
      this.#terminal.delete(oldest)
      if (this.#saturated) continue
      this.#evicted.add(oldest)
      if (this.#evicted.size > this.#limits.evictionTombstones) {
        this.#evicted.clear()
        this.#saturated = true
      }
    }
  }

  /** A closed binding of `key`. */
  terminal(key: string): SessionMeta | undefined {
    return this.#terminal.get(key)
  }
}

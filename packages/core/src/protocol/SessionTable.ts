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
  /** The per-session mutation lock: virtual ms until which an in-flight handler holds it, or null. */
  lockedUntil: number | null
}

/**
 * The resources participant's sessions, kept in step in one place: environment state by session
 * id (cookie sessions without identity included), the binding of each execution key to its
 * session, and the closed (terminal) bindings whose receipts stay answerable.
 */
export class SessionTable<TSession> {
  readonly #states = new Map<string, TSession>()
  readonly #bound = new Map<string, SessionMeta>()
  readonly #terminal = new Map<string, SessionMeta>()

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

  /** Drops the binding of `key` and its session state (retired). */
  release(key: string): void {
    const meta = this.#bound.get(key)
    if (meta === undefined) return
    this.#bound.delete(key)
    this.#states.delete(meta.sessionId)
  }

  /** The session closed: released, its receipts kept answerable under `key`. */
  close(key: string): void {
    const meta = this.#bound.get(key)
    if (meta === undefined) return
    this.release(key)
    this.#terminal.set(key, meta)
  }

  /** A closed binding of `key`. */
  terminal(key: string): SessionMeta | undefined {
    return this.#terminal.get(key)
  }
}

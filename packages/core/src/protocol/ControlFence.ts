import type { CutoverError } from '../contracts/errors.ts'
import { cutoverError } from '../contracts/errors.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'

/** Server checkpoint phases (docs/protocol.md §4.1). */
export const FENCE_PHASES = [
  'idle',
  'preparing',
  'prepared',
  'committing',
  'committed_paused',
  'restoring',
  'restore_failed_paused',
  'restored_paused',
] as const
export type FencePhase = (typeof FENCE_PHASES)[number]

/** How one fenced control operation moves the phase (docs/protocol.md §3.1 `run_operation`). */
export interface FenceOperation {
  /**
   * Operation name; the replay key is `(checkpoint_id, operation)`, so include an identity when it
   * matters.
   */
  readonly operation: string
  readonly allowed: readonly FencePhase[]
  /** Phase while the operation runs; `null` keeps the current phase (abort_inflight). */
  readonly during: FencePhase | null
  /** Phase on success; `null` keeps the phase the operation ran in. */
  readonly after: FencePhase | null
  /** Phase on failure instead of returning to the entry phase (restore → restore_failed_paused). */
  readonly onFailure?: FencePhase
  /** resume/abort: on success the id becomes stale forever and the phase returns to idle. */
  readonly retire?: boolean
  /**
   * What this call asked beyond its id and operation (a commit's or restore's checkpoint directory,
   * `forRequest`): a recorded result is replayed only for the same request.
   */
  readonly request?: string
}

/** `op` as asked for `request` (the checkpoint directory's location). */
export const forRequest = (op: FenceOperation, request: string): FenceOperation => ({
  ...op,
  request,
})

/**
 * The outcome of `begin`: a recorded result replayed, a coalesced duplicate, or a started
 * operation.
 */
export type FenceBegin<T> =
  | { readonly kind: 'replayed'; readonly result: Result<T, CutoverError> }
  | { readonly kind: 'coalesced'; readonly ticket: FenceTicket }
  | { readonly kind: 'started'; readonly ticket: FenceTicket }

/** An operation in flight. Identical calls while it runs receive the same ticket (coalescing). */
export interface FenceTicket {
  readonly key: string
  readonly checkpointId: string
  readonly op: FenceOperation
  readonly entryPhase: FencePhase
  readonly entryActiveId: string | null
  readonly entryDeadline: number | null
}

/** The fence as plain data, for participant cards and status routes. */
export interface FenceSnapshot {
  readonly phase: FencePhase
  readonly active_checkpoint_id: string | null
  readonly deadline_ms: number | null
}

/** A recorded result with the request it answered (replayed only for the same request). */
interface Recorded {
  readonly result: Result<unknown, CutoverError>
  readonly request: string | undefined
}

/**
 * The shared control-plane fence of one server (docs/protocol.md §3.1, §4.1; docs/real-stack.md
 * replay): `stale_checkpoint` for a finished (retired) id, for every operation and before anything
 * else; replay of a recorded result, and coalescing of an identical in-flight call, only for the
 * same request (a different `checkpoint_dir` for the same id and operation is
 * `checkpoint_conflict`; a new deadline is still a replay); `checkpoint_conflict` for a second id;
 * `invalid_phase` otherwise, and for a resume of an id this server never began. Deadlines are
 * absolute virtual ms; an expired deadline is a zero budget, never an error (Gym sacrifices work
 * instead).
 *
 * A small class over plain-data fields: every participant owns one and the simulator drives
 * operations synchronously, so an explicit begin/finish pair models "in flight".
 */
export class ControlFence {
  #phase: FencePhase = 'idle'
  #activeId: string | null = null
  #deadline: number | null = null
  readonly #retired = new Set<string>()
  /** Ids an operation began with on this server (a resume of any other id is `invalid_phase`). */
  readonly #begun = new Set<string>()
  readonly #results = new Map<string, Recorded>()
  readonly #inflight = new Map<string, FenceTicket>()

  get phase(): FencePhase {
    return this.#phase
  }
  get activeCheckpointId(): string | null {
    return this.#activeId
  }
  snapshot(): FenceSnapshot {
    return { phase: this.#phase, active_checkpoint_id: this.#activeId, deadline_ms: this.#deadline }
  }
  /** Checkpoint ids retired by resume/abort (stale forever). */
  isRetired(checkpointId: string): boolean {
    return this.#retired.has(checkpointId)
  }

  /**
   * Budget left before the absolute deadline; never negative (an expired deadline is zero budget).
   */
  remaining(now: number): number {
    return this.#deadline === null ? Number.POSITIVE_INFINITY : Math.max(0, this.#deadline - now)
  }

  /** Stale/conflict/phase checks without running an operation (status and retire routes). */
  requirePhase(checkpointId: string, phases: readonly FencePhase[]): Result<void, CutoverError> {
    if (this.#retired.has(checkpointId))
      return err(cutoverError('stale_checkpoint', `checkpoint ${checkpointId} is already finished`))
    if (this.#activeId !== null && this.#activeId !== checkpointId)
      return err(
        cutoverError(
          'checkpoint_conflict',
          `checkpoint ${this.#activeId} is active, not ${checkpointId}`,
        ),
      )
    if (!phases.includes(this.#phase))
      return err(
        cutoverError(
          'invalid_phase',
          `phase ${this.#phase} does not allow this operation (allowed: ${phases.join(', ')})`,
        ),
      )
    return ok(undefined)
  }

  /**
   * The checks that come before any directory is opened or read (docs/real-stack.md): a finished id
   * is `stale_checkpoint` for every operation; a recorded or in-flight `(checkpoint_id,
   * operation)` whose request (`checkpoint_dir`) differs is `checkpoint_conflict`. `request` is
   * what the operation was asked beyond its id (the checkpoint directory's location), if anything.
   */
  admits(checkpointId: string, operation: string, request?: string): Result<void, CutoverError> {
    if (this.#retired.has(checkpointId))
      return err(cutoverError('stale_checkpoint', `checkpoint ${checkpointId} is already finished`))
    const key = `${checkpointId}\u0000${operation}`
    const earlier = this.#results.get(key)?.request ?? this.#inflight.get(key)?.op.request
    if (request !== undefined && earlier !== undefined && earlier !== request)
      return err(
        cutoverError(
          'checkpoint_conflict',
          `${operation} of checkpoint ${checkpointId} was asked with another checkpoint_dir; a retry must name the same directory`,
        ),
      )
    return ok(undefined)
  }

  /**
   * Starts a fenced operation, or replays / coalesces an identical one (same id, operation and
   * request; a new deadline does not make it another request).
   */
  begin<T>(
    checkpointId: string,
    op: FenceOperation,
    deadline?: number,
  ): Result<FenceBegin<T>, CutoverError> {
    const admitted = this.admits(checkpointId, op.operation, op.request)
    if (!admitted.ok) return admitted
    const key = `${checkpointId}\u0000${op.operation}`
    const recorded = this.#results.get(key)
    if (recorded !== undefined)
      return ok({ kind: 'replayed', result: recorded.result as Result<T, CutoverError> })
    const pending = this.#inflight.get(key)
    if (pending !== undefined) return ok({ kind: 'coalesced', ticket: pending })
    // Nothing to resume: an id never prepared (or restored) here is not this server's checkpoint.
    if (op.retire === true && this.#activeId === null && !this.#begun.has(checkpointId))
      return err(
        cutoverError(
          'invalid_phase',
          `checkpoint ${checkpointId} was never prepared or restored here; there is nothing to resume`,
        ),
      )
    const check = this.requirePhase(checkpointId, op.allowed)
    if (!check.ok) return check
    const ticket: FenceTicket = {
      key,
      checkpointId,
      op,
      entryPhase: this.#phase,
      entryActiveId: this.#activeId,
      entryDeadline: this.#deadline,
    }
    this.#inflight.set(key, ticket)
    this.#begun.add(checkpointId)
    this.#activeId = checkpointId
    if (deadline !== undefined) this.#deadline = deadline
    if (op.during !== null) this.#phase = op.during
    return ok({ kind: 'started', ticket })
  }

  /** Ends an operation: success records the result and moves to `after`; failure rolls back. */
  finish<T>(ticket: FenceTicket, result: Result<T, CutoverError>): Result<T, CutoverError> {
    if (this.#inflight.get(ticket.key) !== ticket) return result
    this.#inflight.delete(ticket.key)
    if (!result.ok) {
      if (ticket.op.onFailure !== undefined) {
        this.#phase = ticket.op.onFailure
      } else {
        this.#phase = ticket.entryPhase
        this.#deadline = ticket.entryDeadline
        if (ticket.entryPhase === 'idle') this.#activeId = ticket.entryActiveId
      }
      return result
    }
    this.#results.set(ticket.key, { result, request: ticket.op.request })
    if (ticket.op.retire === true) {
      this.#retired.add(ticket.checkpointId)
      this.#phase = 'idle'
      this.#activeId = null
      this.#deadline = null
    } else if (ticket.op.after !== null) {
      // mark_prepared may already have moved the phase on while the operation ran; keep that.
      if (ticket.op.during === null || this.#phase === ticket.op.during)
        this.#phase = ticket.op.after
    } else {
      this.#phase =
        ticket.entryPhase === 'idle' && ticket.op.during !== null ? ticket.op.during : this.#phase
    }
    return result
  }

  /** `begin` + run + `finish` for a synchronous operation; a coalesced call cannot occur here. */
  run<T>(
    checkpointId: string,
    op: FenceOperation,
    body: () => Result<T, CutoverError>,
    deadline?: number,
  ): Result<T, CutoverError> {
    const started = this.begin<T>(checkpointId, op, deadline)
    if (!started.ok) return started
    const b = started.value
    if (b.kind === 'replayed') return b.result
    if (b.kind === 'coalesced')
      return err(cutoverError('invalid_phase', `operation ${op.operation} is already in flight`))
    return this.finish(b.ticket, body())
  }

  /**
   * A prepare that failed after its call returned (the agent's deadline without readiness): as if
   * the prepare operation had raised (§3.1 step 4, §4.1 "failed prepare: fence returns to idle"),
   * its recorded result is dropped, the phase returns to idle and the active id is cleared, so the
   * same id may prepare again and another id is no longer a conflict.
   */
  failPrepare(checkpointId: string, operation = 'prepare'): boolean {
    if (
      this.#activeId !== checkpointId ||
      (this.#phase !== 'preparing' && this.#phase !== 'prepared')
    )
      return false
    this.#results.delete(`${checkpointId}\u0000${operation}`)
    this.#phase = 'idle'
    this.#activeId = null
    this.#deadline = null
    return true
  }

  /**
   * A recorded commit whose bytes did not survive (a staged write failed after the call returned):
   * the record is void, the phase returns to `prepared` and the commit may run again (§5: success
   * stands only for a namespace that verifies).
   */
  voidCommit(checkpointId: string, operation = 'commit'): boolean {
    if (this.#activeId !== checkpointId || this.#phase !== 'committed_paused') return false
    this.#results.delete(`${checkpointId}\u0000${operation}`)
    this.#phase = 'prepared'
    return true
  }

  /** True when `(checkpointId, operation)` has a recorded successful result. */
  hasRecorded(checkpointId: string, operation: string): boolean {
    const r = this.#results.get(`${checkpointId}\u0000${operation}`)
    return r !== undefined && r.result.ok
  }

  /** preparing → prepared once the participant reports readiness (drained / ready_to_commit). */
  markPrepared(checkpointId: string): boolean {
    if (this.#activeId !== checkpointId || this.#phase !== 'preparing') return false
    this.#phase = 'prepared'
    return true
  }
}

/** The fenced operations shared by the participants (docs/protocol.md §3.2–3.4 tables). */
export const FENCE_OPS = {
  prepare: { operation: 'prepare', allowed: ['idle'], during: 'preparing', after: 'preparing' },
  resourcesPrepare: {
    operation: 'prepare',
    allowed: ['idle'],
    during: 'preparing',
    after: 'prepared',
  },
  commit: {
    operation: 'commit',
    allowed: ['prepared'],
    during: 'committing',
    after: 'committed_paused',
  },
  modelRestore: {
    operation: 'restore',
    allowed: ['idle', 'restore_failed_paused'],
    during: 'restoring',
    after: 'restored_paused',
    onFailure: 'restore_failed_paused',
  },
  restore: {
    operation: 'restore',
    allowed: ['idle'],
    during: 'restoring',
    after: 'restored_paused',
  },
  modelResume: {
    operation: 'resume',
    allowed: [
      'idle',
      'preparing',
      'prepared',
      'committed_paused',
      'restore_failed_paused',
      'restored_paused',
    ],
    during: null,
    after: 'idle',
    retire: true,
  },
  agentResume: {
    operation: 'resume',
    allowed: ['idle', 'preparing', 'prepared', 'committed_paused', 'restored_paused'],
    during: null,
    after: 'idle',
    retire: true,
  },
  resourcesResume: {
    operation: 'resume',
    allowed: ['idle', 'prepared', 'committed_paused', 'restored_paused'],
    during: null,
    after: 'idle',
    retire: true,
  },
} as const satisfies Record<string, FenceOperation>

import type { CutoverError } from '../contracts/errors.ts'
import { cutoverError } from '../contracts/errors.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'

/**
 * The policy model's service-level admission coordinator (docs/protocol.md §4.6): which workers are
 * connected, the membership a close freezes, and which frozen members acknowledged. With one worker
 * there is no coordinator to ask: the one worker is always drained of acknowledgements.
 */
export class WorkerCoordinator {
  readonly count: number
  readonly #connected = new Set<number>()
  #frozen: readonly number[] | null = null
  readonly #acked = new Set<number>()

  constructor(workers: number) {
    this.count = Math.max(1, workers)
    for (let k = 0; k < this.count; k++) this.#connected.add(k)
  }

  /** True when more than one worker sits behind the coordinator. */
  get managed(): boolean {
    return this.count > 1
  }

  /** Acknowledged members (1 for a single worker). */
  get acknowledged(): number {
    return this.count === 1 ? 1 : this.#acked.size
  }

  get connectedCount(): number {
    return this.#connected.size
  }

  isConnected(worker: number): boolean {
    return this.#connected.has(worker)
  }

  /** Close freezes the exact connected membership; a missing member is never an implicit zero. */
  close(): Result<void, CutoverError> {
    const members = [...this.#connected].sort((a, b) => a - b)
    if (members.length !== this.count) {
      const missing: number[] = []
      for (let k = 0; k < this.count; k++) if (!this.#connected.has(k)) missing.push(k)
      return err(cutoverError('missing_workers', `workers ${missing.join(', ')} are not connected`))
    }
    this.#frozen = members
    this.#acked.clear()
    return ok(undefined)
  }

  /** True when every frozen member acknowledged (always, for a single worker). */
  allAcknowledged(): boolean {
    if (this.count === 1) return true
    return (this.#frozen ?? []).every((w) => this.#acked.has(w))
  }

  /** Frozen members that have not acknowledged. */
  unacknowledged(): readonly number[] {
    return (this.#frozen ?? []).filter((w) => !this.#acked.has(w))
  }

  /**
   * A worker acknowledges the closed state (with its in-flight counters folded into the model's).
   */
  ack(worker: number): Result<void, CutoverError> {
    if (this.#frozen === null || !this.#frozen.includes(worker))
      return err(
        cutoverError('worker_registration_rejected', `worker ${worker} is not a frozen member`),
      )
    this.#acked.add(worker)
    return ok(undefined)
  }

  /** A worker process drops (its in-flight is lost with it; it never acks). */
  disconnect(worker: number): void {
    this.#connected.delete(worker)
  }

  /** A (replacement) worker joins. */
  register(worker: number): void {
    this.#connected.add(worker)
  }

  /** Admission reopened: the membership thaws. */
  reopen(): void {
    this.#frozen = null
    this.#acked.clear()
  }
}

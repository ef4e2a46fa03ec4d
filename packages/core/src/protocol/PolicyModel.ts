// Longer than ~400 lines on purpose: admission, in-flight tickets, tombstones, the fence, the relay
// and the generation-cut round all guard the same generation calls (docs/protocol.md §3.2, §4.2,
// §11); what has a concept of its own is beside it (WorkerCoordinator,
// LineageLedger, ControlFence, TokenStore, GenerationCuts: the cut bookkeeping this class only
// delegates to).
import type { CutoverError } from '../contracts/errors.ts'
import { cutoverError } from '../contracts/errors.ts'
import type { CheckpointDirectory } from '../directory/CheckpointDirectory.ts'
import { commitLedgerSteps } from '../directory/commitLedgerNamespace.ts'
import { committedContinuationRoots } from '../directory/committedContinuationRoots.ts'
import { loadLedgerNamespace, loadLedgerSteps } from '../directory/loadLedgerNamespace.ts'
import type { VerifySteps } from '../directory/verifySteps.ts'
import { runSteps } from '../directory/verifySteps.ts'
import type { Digest } from '../ports.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import { ControlFence, FENCE_OPS, forRequest } from './ControlFence.ts'
import { fencedCommitSteps } from './fencedCommit.ts'
import type { ContinuationRoot } from '../records/ContinuationRoot.ts'
import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import type { LineageRow } from '../records/LineageRow.ts'
import { executionKey, parseKey } from '../records/ExecutionIdentity.ts'
import { LineageLedger } from './LineageLedger.ts'
import type { TombstoneReader } from './TombstoneSet.ts'
import { TombstoneSet } from './TombstoneSet.ts'
import { WorkerCoordinator } from './WorkerCoordinator.ts'
import type { GenerationCutProof } from '../contracts/generationCuts.ts'
import { createDirectoryView } from '../directory/DirectoryView.ts'
import { restoredCutPrefixes } from '../directory/tokenSegments.ts'
import { continuedExecutions } from '../directory/continuedExecutions.ts'
import type { GenerationCutInventory, GenerationCutReceipt, WorkerCutAck } from './generationCut.ts'
import type { FrozenTicket, RestoredCut, TicketClass, TokenReader } from './GenerationCuts.ts'
import { GenerationCuts } from './GenerationCuts.ts'

/** Admission limiter states (docs/protocol.md §4.2). */
export type AdmissionState = 'accepting' | 'draining' | 'paused' | 'restore_failed_paused'

/** One admitted generation request (an admission ticket). */
export interface ModelAdmission {
  readonly ticket: string
  readonly model_call_id: string
  readonly parent_call_id: string | null
  /**
   * True when the parent is attempt N's verified last committed call (the restored-parent relay).
   */
  readonly relay: boolean
  readonly prev_len: number
  readonly worker: number
}

/** Token-free coordinates the generation worker returns once the delta is durable in the store. */
export interface TokenCoordinates {
  readonly staging_key: string
  readonly prev_len: number
  readonly delta_len: number
  readonly cum_len: number
}

/** `pause` / `status` report (docs/protocol.md §3.2). */
export interface AdmissionReport {
  readonly state: AdmissionState
  readonly workers: { readonly acknowledged: number; readonly expected: number }
  readonly inflight_total: number
  readonly inflight: readonly { readonly rollout_id: string; readonly attempt_index: number }[]
  /**
   * Generation-safe: calls whose response is not yet delivered, cut-safe ones included (only once a
   * cut round ran).
   */
  readonly response_inflight_total?: number
  /** Generation-safe: the aggregated cut proof, once every frozen ticket has its disposition. */
  readonly generation_cut_proof?: GenerationCutProof
}

export interface ModelCommitResult {
  readonly rollouts: number
  readonly rows: number
  readonly excluded_tombstoned: number
  readonly excluded_inactive: number
  readonly manifest_digest: string
  /** Generation-safe checkpoints: the `generation_cut` records written. */
  readonly generation_cut_records?: number
}

export interface ModelRestoreResult {
  readonly rollouts: number
  readonly rows: number
  readonly checkpoint_id: string
  readonly tombstones: readonly string[]
  readonly source_attempts: readonly string[]
  /** N+1 execution key → the verified N call its first call links to. */
  readonly relays: { readonly [key: string]: string }
  /** Generation-safe checkpoints: restored cuts whose segments verified. */
  readonly generation_cuts_restored?: number
}

/** Options of one policy-model server process. */
export interface PolicyModelOptions {
  readonly serverName?: string
  /** Uvicorn workers; two or more put a service-level admission coordinator in front (§4.6). */
  readonly workers?: number
  readonly instanceRole?: 'policy' | 'auxiliary'
  /**
   * False for a server without a ledger lifecycle (no token-free custody): commit is
   * `ledger_not_checkpointable`.
   */
  readonly ledger?: boolean
  /**
   * The process generation this server's call ids carry (0: `policy-call-000001`; g ≥ 1, a process
   * spawned for a restore: `policy-call-g1-000001`), so ids stay unique across restores.
   */
  readonly generation?: number
  /** Teaching-mode bug `relay-applied-twice`: the restored-parent relay is linked twice. */
  readonly relayTwice?: boolean
  /** Teaching-mode bug `tombstones-skipped-on-restore`: restore installs no fences. */
  readonly skipRestoreFences?: boolean
  /**
   * A replacement process: boots paused and refuses resume until a restore succeeded (§3.4's rule,
   * for the model).
   */
  readonly restoreExpected?: boolean
  /**
   * The token store the generation workers stage into (commit validates cut prefixes against it).
   */
  readonly tokenStore?: TokenReader
  /**
   * Teaching-mode bug `egress-unfenced`: a frozen ticket's response is delivered during the cut.
   */
  readonly unfencedEgress?: boolean
}

/**
 * A status long-poll's answer: the report, and how long the server holds the request before
 * answering (0 when paused).
 */
export interface AdmissionLongPoll {
  readonly report: AdmissionReport
  /**
   * `min(timeout, remaining)` virtual ms while not yet paused (§3.2 status
   * `wait_state=paused&timeout_s`).
   */
  readonly wait_ms: number
}

interface Inflight {
  readonly id: ExecutionIdentity
  readonly admission: ModelAdmission
  cancelled: boolean
}

/**
 * The policy model participant (docs/protocol.md §3.2, §4.2, §5.1, §6.2): admission limiter,
 * in-flight tracking, tombstones, the token-free lineage ledger, commit of exactly the lineage
 * named by agent continuation roots, restore into a fresh namespace and the restored-parent relay.
 * With two or more workers the admission truth is the coordinator's (§4.6): close freezes
 * membership, paused needs every member's acknowledgement and zero summed in-flight.
 */
export class PolicyModel {
  readonly serverName: string
  readonly fence = new ControlFence()
  readonly #digest: Digest
  readonly #role: 'policy' | 'auxiliary'
  readonly #hasLedger: boolean
  #state: AdmissionState = 'accepting'
  #nextCall = 1
  #nextTicket = 1
  /** True once any generation or lineage entered this process: restore needs a fresh namespace. */
  #served = false
  readonly #inflight = new Map<string, Inflight>()
  readonly #tombstones = new TombstoneSet()
  readonly #ledger = new LineageLedger()
  readonly #sourceAttempts: string[] = []
  readonly #workers: WorkerCoordinator
  #lastCommitDigest: string | null = null
  readonly #callPrefix: string
  readonly #skipRestoreFences: boolean
  #restoreExpected: boolean
  readonly #cuts: GenerationCuts
  readonly #tokenStore: TokenReader | undefined
  readonly #unfencedEgress: boolean
  /** Frozen tickets whose generation finished behind the egress fence (their response is held). */
  readonly #held = new Set<string>()

  constructor(digest: Digest, options: PolicyModelOptions = {}) {
    this.#digest = digest
    this.serverName = options.serverName ?? 'policy'
    this.#role = options.instanceRole ?? 'policy'
    this.#hasLedger = options.ledger ?? true
    this.#workers = new WorkerCoordinator(options.workers ?? 1)
    const generation = options.generation ?? 0
    this.#callPrefix =
      generation === 0 ? `${this.serverName}-call-` : `${this.serverName}-call-g${generation}-`
    if (options.relayTwice === true) this.#ledger.relayTwice = true
    this.#skipRestoreFences = options.skipRestoreFences === true
    this.#restoreExpected = options.restoreExpected ?? false
    if (this.#restoreExpected) this.#state = 'paused'
    this.#cuts = new GenerationCuts(digest, this.serverName)
    this.#tokenStore = options.tokenStore
    this.#unfencedEgress = options.unfencedEgress === true
  }

  get admission(): AdmissionState {
    return this.#state
  }
  get inflightTotal(): number {
    return this.#inflight.size
  }
  get workerCount(): number {
    return this.#workers.count
  }
  get manifestDigest(): string | null {
    return this.#lastCommitDigest
  }
  /** Fenced attempts, sorted. */
  tombstones(): readonly string[] {
    return this.#tombstones.sorted()
  }
  /** The tombstones as views read them (a count now, the sorted list later). */
  get tombstoneSet(): TombstoneReader {
    return this.#tombstones
  }
  isTombstoned(id: ExecutionIdentity): boolean {
    return this.#tombstones.has(id)
  }
  /** Every lineage row, by capture key (for views and tests). */
  ledgerRows(): readonly LineageRow[] {
    return this.#ledger.rows()
  }

  #roleCheck(): Result<void, CutoverError> {
    return this.#role === 'policy'
      ? ok(undefined)
      : err(cutoverError('not_a_policy_instance', `${this.serverName} is not a policy instance`))
  }

  /**
   * Data-plane admission of one generation call: tombstoned identity → `stale_attempt` before any
   * state changes; closed limiter → `checkpoint_parked` (retry after resume, not a failure).
   */
  admit(id: ExecutionIdentity, worker = 0): Result<ModelAdmission, CutoverError> {
    const key = executionKey(id)
    if (this.#tombstones.has(key))
      return err(cutoverError('stale_attempt', `attempt ${key} is fenced`))
    if (this.#state !== 'accepting')
      return err(
        cutoverError('checkpoint_parked', `policy admission is ${this.#state}; retry after resume`),
      )
    if (this.#workers.managed && !this.#workers.isConnected(worker))
      return err(cutoverError('checkpoint_parked', `worker ${worker} is not connected`))
    this.#served = true
    const link = this.#ledger.link(id)
    const admission: ModelAdmission = {
      ticket: `t${this.#nextTicket++}`,
      model_call_id: `${this.#callPrefix}${String(this.#nextCall++).padStart(6, '0')}`,
      parent_call_id: link.parent,
      relay: link.relay,
      prev_len: link.prevLen,
      worker,
    }
    this.#inflight.set(admission.ticket, { id, admission, cancelled: false })
    return ok(admission)
  }

  /**
   * The response is complete: custody (the lineage row) is recorded before the terminal response
   * event, then the request leaves the in-flight set. A cancelled (aborted) request records
   * nothing.
   */
  complete(
    ticket: string,
    coords: TokenCoordinates,
    now: number,
    weightVersion = 0,
  ): Result<LineageRow, CutoverError> {
    const entry = this.#inflight.get(ticket)
    if (entry === undefined) return err(cutoverError('invalid_request', `unknown ticket ${ticket}`))
    if (this.#cuts.isFenced(ticket) && !this.#unfencedEgress) {
      // Egress fence (docs/protocol.md §11.3 step 4): the generation finished, its response is
      // held.
      this.#held.add(ticket)
      return err(
        cutoverError(
          'checkpoint_parked',
          `the response of ${entry.admission.model_call_id} is held by the egress fence until the checkpoint's disposition is known`,
        ),
      )
    }
    this.#inflight.delete(ticket)
    this.#afterInflightChange()
    if (entry.cancelled || this.#tombstones.has(executionKey(entry.id)))
      return err(
        cutoverError(
          'stale_attempt',
          `attempt ${executionKey(entry.id)} was aborted; its response is fenced`,
        ),
      )
    const row: LineageRow = {
      model_call_id: entry.admission.model_call_id,
      parent_call_id: entry.admission.parent_call_id,
      rollout_id: entry.id.rollout_id,
      attempt_index: entry.id.attempt_index,
      prev_len: coords.prev_len,
      delta_len: coords.delta_len,
      cum_len: coords.cum_len,
      weight_version: weightVersion,
      staging_key: coords.staging_key,
      admitted_at: now,
      failure_reason: null,
    }
    this.#ledger.record(entry.id, row)
    return ok(row)
  }

  /**
   * A cancelled request task finally exits (only then can commit proceed, §8 abort_inflight row).
   */
  taskExit(ticket: string): boolean {
    const entry = this.#inflight.get(ticket)
    if (entry === undefined || !entry.cancelled) return false
    this.#inflight.delete(ticket)
    this.#afterInflightChange()
    return true
  }

  /** True while `ticket` is in flight (admitted, neither completed nor exited). */
  isInflight(ticket: string): boolean {
    return this.#inflight.has(ticket)
  }

  /** Tickets in flight for one identity. */
  ticketsOf(id: ExecutionIdentity): readonly string[] {
    const key = executionKey(id)
    return [...this.#inflight.entries()]
      .filter(([, v]) => executionKey(v.id) === key)
      .map(([t]) => t)
  }

  #afterInflightChange(): void {
    if (this.#state === 'draining' && this.#drained()) this.#state = 'paused'
  }

  /** In-flight calls that still block `paused`: a frozen ticket with a disposition is cut-safe. */
  #unsettled(): readonly Inflight[] {
    const all = [...this.#inflight.values()]
    return this.#cuts.active ? all.filter((v) => !this.#cuts.settled(v.admission.ticket)) : all
  }

  /** How many in-flight calls block `paused` (O(1) unless a cut round is in progress). */
  #unsettledCount(): number {
    return this.#cuts.active ? this.#unsettled().length : this.#inflight.size
  }

  #drained(): boolean {
    return this.#unsettledCount() === 0 && this.#workers.allAcknowledged()
  }

  #report(): AdmissionReport {
    const unsettled = this.#unsettled()
    const proof = this.#cuts.proof
    return {
      state: this.#state,
      workers: { acknowledged: this.#workers.acknowledged, expected: this.#workers.count },
      inflight_total: unsettled.length,
      inflight: unsettled.map((v) => ({
        rollout_id: v.id.rollout_id,
        attempt_index: v.id.attempt_index,
      })),
      ...(this.#cuts.active ? { response_inflight_total: this.#inflight.size } : {}),
      ...(this.#cuts.active && proof !== null ? { generation_cut_proof: proof } : {}),
    }
  }

  // ---- generation-safe cuts (docs/protocol.md §11) ----

  /**
   * The cut round of a generation-safe prepare: the tickets still in flight are frozen and their
   * egress fenced; `classify` says which the model does not send for cutting (constrained
   * decoding: `excluded`; no token yet: `not_started`). Returns one inventory per worker to send.
   */
  beginGenerationCut(
    checkpointId: string,
    classify: (ticket: string, id: ExecutionIdentity, admission: ModelAdmission) => TicketClass,
    admittedAt: (ticket: string) => number,
  ): Result<
    {
      readonly inventories: ReadonlyMap<number, GenerationCutInventory>
      readonly frozen: readonly FrozenTicket[]
    },
    CutoverError
  > {
    const check = this.fence.requirePhase(checkpointId, ['preparing'])
    if (!check.ok) return check
    const tickets = [...this.#inflight.values()]
      .filter((v) => !v.cancelled)
      .map((v) => ({
        ticket: v.admission.ticket,
        id: v.id,
        model_call_id: v.admission.model_call_id,
        worker: v.admission.worker,
        admitted_at: admittedAt(v.admission.ticket),
        class: classify(v.admission.ticket, v.id, v.admission),
      }))
    const managed = this.#workers.managed
      ? Array.from({ length: this.#workers.count }, (_, k) => k).filter((k) =>
          this.#workers.isConnected(k),
        )
      : []
    const inventories = this.#cuts.freeze(checkpointId, tickets, managed)
    this.#afterInflightChange()
    return ok({ inventories, frozen: this.#cuts.frozen() })
  }

  /** A worker's generation-cut receipt (refused unless it answers its inventory exactly). */
  acceptCutReceipt(
    worker: number,
    receipt: GenerationCutReceipt,
  ): Result<WorkerCutAck, CutoverError> {
    const accepted = this.#cuts.accept(worker, receipt)
    if (accepted.ok) this.#afterInflightChange()
    return accepted
  }

  /**
   * True when the generation of `ticket` finished behind the egress fence (its response is held).
   */
  heldResponse(ticket: string): boolean {
    return this.#held.has(ticket)
  }
  /** True while `ticket`'s response is fenced. */
  egressFenced(ticket: string): boolean {
    return this.#cuts.isFenced(ticket) && !this.#unfencedEgress
  }
  get generationCutProof(): GenerationCutProof | null {
    return this.#cuts.proof
  }
  /** True while the cut round of `checkpointId` is in progress (its fence not yet released). */
  cutRoundOpen(checkpointId: string): boolean {
    return this.#cuts.checkpoint === checkpointId
  }
  /** The frozen tickets of the cut round in progress (empty when none). */
  generationCutFrozen(): readonly FrozenTicket[] {
    return this.#cuts.frozen()
  }

  /**
   * The checkpoint's disposition is known: the fence lifts (docs/protocol.md §11.3 step 4).
   * - `committed`: the held responses of this process are dropped and the tickets leave (attempt
   *   N+1 continues each frozen call from its disposition).
   * - `aborted`: nothing was lost, so nothing is redone here: every frozen ticket stays in flight
   *   unfenced; a held response (`held: true`) is released — its caller completes it now, once —
   *   and a call still generating goes on from where it is.
   */
  releaseEgress(
    disposition: 'committed' | 'aborted',
  ): readonly (FrozenTicket & { readonly held: boolean })[] {
    const released = this.#cuts.release().map((t) => ({ ...t, held: this.#held.has(t.ticket) }))
    for (const t of released) {
      this.#held.delete(t.ticket)
      if (disposition === 'committed') this.#inflight.delete(t.ticket)
    }
    this.#afterInflightChange()
    return released
  }

  /** The restored cut attempt `id` (N+1) continues, if any. */
  restoredCutFor(id: ExecutionIdentity): RestoredCut | undefined {
    return this.#cuts.restoredFor(id)
  }
  /**
   * `claim` of a restored cut by a worker's call of N+1 (`restored_cut_already_owned` /
   * `restored_cut_consumed`).
   */
  claimCut(
    cutCallId: string,
    worker: number,
    modelCallId: string,
  ): Result<RestoredCut, CutoverError> {
    return this.#cuts.claim(cutCallId, worker, modelCallId)
  }
  /** The lease holder prefilled the prefix. */
  consumeCut(cutCallId: string, worker: number): Result<void, CutoverError> {
    return this.#cuts.consume(cutCallId, worker)
  }

  // ---- coordinator (§4.6) ----

  /** A worker acknowledges the closed state (with its in-flight counters folded into ours). */
  workerAck(worker: number): Result<void, CutoverError> {
    const acked = this.#workers.ack(worker)
    if (!acked.ok) return acked
    this.#afterInflightChange()
    return ok(undefined)
  }

  /** A worker process drops (its in-flight is lost with it; it never acks). */
  workerDisconnect(worker: number): void {
    this.#workers.disconnect(worker)
    this.#cuts.releaseWorker(worker)
  }

  /** A (replacement) worker registers: refused while admission is not accepting. */
  workerRegister(worker: number): Result<void, CutoverError> {
    if (this.#state !== 'accepting')
      return err(
        cutoverError(
          'worker_registration_rejected',
          `worker ${worker} cannot join while admission is ${this.#state}`,
        ),
      )
    this.#workers.register(worker)
    return ok(undefined)
  }

  // ---- control operations ----

  /** `model-admission/pause`: close admission; paused at once when nothing is in flight. */
  pause(checkpointId: string, deadline: number): Result<AdmissionReport, CutoverError> {
    const role = this.#roleCheck()
    if (!role.ok) return role
    return this.fence.run(
      checkpointId,
      FENCE_OPS.prepare,
      () => {
        if (this.#workers.managed) {
          const closed = this.#workers.close()
          if (!closed.ok) return closed
        }
        this.#state = this.#drained() ? 'paused' : 'draining'
        if (this.#state === 'paused') this.fence.markPrepared(checkpointId)
        return ok(this.#report())
      },
      deadline,
    )
  }

  /**
   * `model-admission/status`: marks prepared once paused. With a coordinator, members that have not
   * acknowledged when the deadline passed are `missing_workers`.
   */
  status(checkpointId: string, now: number): Result<AdmissionReport, CutoverError> {
    const check = this.fence.requirePhase(checkpointId, [
      'preparing',
      'prepared',
      'committing',
      'committed_paused',
      'restored_paused',
      'restore_failed_paused',
    ])
    if (!check.ok) return check
    if (this.#state === 'paused') this.fence.markPrepared(checkpointId)
    else if (this.#workers.managed && this.fence.remaining(now) === 0) {
      const missing = this.#workers.unacknowledged()
      if (missing.length > 0)
        return err(
          cutoverError(
            'missing_workers',
            `workers ${missing.join(', ')} did not acknowledge the close`,
          ),
        )
    }
    return ok(this.#report())
  }

  /**
   * `status?wait_state=paused&timeout_s=…` (§3.2): the long-poll waits up to `min(timeout,
   * remaining)` for `paused`. The simulator answers at once, so the wait is returned: the caller
   * asks again after `wait_ms` (or sooner, when in-flight calls finish). An expired deadline waits
   * 0.
   */
  statusLongPoll(
    checkpointId: string,
    now: number,
    timeoutMs: number,
  ): Result<AdmissionLongPoll, CutoverError> {
    const report = this.status(checkpointId, now)
    if (!report.ok) return report
    const wait =
      report.value.state === 'paused'
        ? 0
        : Math.max(0, Math.min(timeoutMs, this.fence.remaining(now)))
    return ok({ report: report.value, wait_ms: wait })
  }

  /**
   * Deadline escape hatch: tombstone the attempt and cancel its tasks (they stay in flight until
   * they exit).
   */
  abortInflight(
    checkpointId: string,
    id: ExecutionIdentity,
  ): Result<
    { state: AdmissionState; aborted_inflight: number; inflight_total: number },
    CutoverError
  > {
    const key = executionKey(id)
    return this.fence.run(
      checkpointId,
      {
        operation: `abort_inflight:${key}`,
        allowed: ['preparing', 'prepared'],
        during: null,
        after: null,
      },
      () => {
        this.#tombstones.add(key)
        let aborted = 0
        for (const entry of this.#inflight.values())
          if (executionKey(entry.id) === key && !entry.cancelled) {
            entry.cancelled = true
            aborted++
          }
        return ok({
          state: this.#state,
          aborted_inflight: aborted,
          inflight_total: this.#inflight.size,
        })
      },
    )
  }

  /**
   * `model-checkpoint/commit`: requires paused and zero in flight (`ledger_not_quiescent`); the
   * directory layer writes the lineage of exactly the capture keys the agent continuation roots
   * name, each root matching exactly one committed row (`ledger_mismatch` otherwise); manifest
   * last. Lineage the roots do not name is recorded as `excluded_inactive`. Without `roots` (the
   * real NeMo-RL controller sends none, after committing the agent), the roots of the agent
   * namespace already committed in D are used (`committedContinuationRoots`).
   */
  commit(
    checkpointId: string,
    dir: CheckpointDirectory,
    roots?: readonly ContinuationRoot[],
  ): Result<ModelCommitResult, CutoverError> {
    return runSteps(this.commitSteps(checkpointId, dir, roots))
  }

  /**
   * `commit` writing one bounded batch of lineage files per step (the caller performs each batch's
   * writes in between).
   */
  *commitSteps(
    checkpointId: string,
    dir: CheckpointDirectory,
    given?: readonly ContinuationRoot[],
  ): Generator<void, Result<ModelCommitResult, CutoverError>, void> {
    const durable = (): boolean => {
      const loaded = loadLedgerNamespace(dir, this.#digest, this.serverName)
      return loaded.ok && loaded.value.manifest.checkpoint_id === checkpointId
    }
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this
    return yield* fencedCommitSteps(
      this.fence,
      checkpointId,
      dir,
      'ledger_mismatch',
      durable,
      function* () {
        if (!self.#hasLedger)
          return err(
            cutoverError(
              'ledger_not_checkpointable',
              `${self.serverName} has no ledger lifecycle; nothing can be committed`,
            ),
          )
        const unsettled = self.#unsettledCount()
        if (self.#state !== 'paused' || unsettled > 0)
          return err(
            cutoverError(
              'ledger_not_quiescent',
              `admission is ${self.#state} with ${unsettled} in flight`,
            ),
          )
        // Every cut prefix is checked against the token store before anything is written.
        if (self.#cuts.active && self.#tokenStore !== undefined) {
          const valid = self.#cuts.validate(self.#tokenStore)
          if (!valid.ok) return valid
        }
        const read =
          given === undefined ? committedContinuationRoots(dir, self.#digest, checkpointId) : null
        if (read !== null && !read.ok) return read
        const roots = read?.value ?? (given as readonly ContinuationRoot[])
        const named = new Set(roots.map((r) => r.capture_key))
        const rollouts: { [captureKey: string]: readonly LineageRow[] } = {}
        const excluded: ExecutionIdentity[] = []
        for (const [ck, rows] of self.#ledger.byCapture()) {
          if (named.has(ck)) rollouts[ck] = rows
          else if (rows[0] !== undefined)
            excluded.push({ rollout_id: rows[0].rollout_id, attempt_index: rows[0].attempt_index })
        }
        const tombstones = self.tombstones().map(parseKey)
        const cutRecords = self.#cuts.active
          ? self.#cuts.records((id) => !self.#tombstones.has(executionKey(id)))
          : []
        const committed = yield* commitLedgerSteps(dir, self.#digest, {
          generation_cuts: cutRecords,
          server_name: self.serverName,
          checkpoint_id: checkpointId,
          rollouts,
          tombstones,
          source_attempts: roots.map((r) => ({
            rollout_id: r.rollout_id,
            attempt_index: r.attempt_index,
          })),
          continuation_roots: roots,
          excluded_inactive: excluded,
        })
        if (!committed.ok) return committed
        self.#lastCommitDigest = committed.value.manifest_digest
        return ok({
          rollouts: committed.value.rollouts,
          rows: committed.value.rows,
          excluded_tombstoned: tombstones.length,
          excluded_inactive: excluded.length,
          manifest_digest: committed.value.manifest_digest,
          ...(self.#cuts.active ? { generation_cut_records: cutRecords.length } : {}),
        })
      },
    )
  }

  /**
   * `model-checkpoint/restore` into a fresh namespace: boots paused; the directory layer verifies
   * the ledger (manifest, every digest, row schemas, no unlisted file) before anything is
   * installed; then the manifest's tombstones, every source attempt and every other execution the
   * agent namespace continues (one with no committed call has no root) are fenced, and the
   * restored-parent relay of each continued rollout is armed. Failure → `restore_failed_paused`.
   */
  restore(
    checkpointId: string,
    dir: CheckpointDirectory,
  ): Result<ModelRestoreResult, CutoverError> {
    return runSteps(this.restoreSteps(checkpointId, dir))
  }

  /**
   * `restore` with the ledger read and verified one bounded batch of files at a time first (reads
   * only: the fence still decides, and a refused call changes nothing), then installed at once.
   */
  *restoreSteps(
    checkpointId: string,
    dir: CheckpointDirectory,
  ): VerifySteps<Result<ModelRestoreResult, CutoverError>> {
    const role = this.#roleCheck()
    if (!role.ok) return role
    // A finished id, or the same restore asked of another directory, is refused before D is read.
    const restore = forRequest(FENCE_OPS.modelRestore, dir.location)
    const admitted = this.fence.admits(checkpointId, restore.operation, restore.request)
    if (!admitted.ok) return admitted
    const view = createDirectoryView(dir, this.#digest)
    const ledger = yield* loadLedgerSteps(view, this.serverName)
    const result = this.fence.run(checkpointId, restore, () => {
      // Admission closes only once the fence accepted the restore (a refused call changes nothing).
      this.#state = 'paused'
      if (this.#served || this.#ledger.size > 0)
        return err(
          cutoverError(
            'ledger_mismatch',
            'restore needs a fresh ledger namespace; this process has served traffic',
          ),
        )
      if (!ledger.ok) return ledger
      const { manifest, rollouts } = ledger.value
      if (manifest.checkpoint_id !== checkpointId)
        return err(
          cutoverError('ledger_mismatch', `manifest is for checkpoint ${manifest.checkpoint_id}`),
        )
      // Every segment a durable_prefix names is verified before any state is activated.
      const cuts = manifest.generation_cuts
      const prefixes = cuts === undefined ? ok([]) : restoredCutPrefixes(view, cuts)
      if (!prefixes.ok) return prefixes
      // Every reference of a capture key names the same boundary: its root's last committed call.
      const boundaryOf = new Map(
        manifest.storage_references.map((r) => [r.capture_key, r.boundary_model_call_id]),
      )
      let rowCount = 0
      for (const ck of Object.keys(rollouts).sort()) {
        const rows = rollouts[ck] as readonly LineageRow[]
        if (rows.length === 0) continue
        this.#ledger.restore(ck, rows, boundaryOf.get(ck) ?? '')
        rowCount += rows.length
      }
      // Cut rollouts continue under N+1 too: their attempt N is fenced like every source attempt.
      const cutSources = (cuts ?? []).map((c) => ({
        rollout_id: c.rollout_id,
        attempt_index: c.attempt_index,
      }))
      // So is every other execution the checkpoint continues (docs/protocol.md §2.3 "model: attempt
      // N fenced"; §8 stale attempt after restore): one whose boundary names no model call has no
      // continuation root, so it is not among source_attempts, yet the agent restores it under N+1.
      const continued = continuedExecutions(dir, this.#digest)
      if (!this.#skipRestoreFences)
        for (const id of [
          ...manifest.tombstones,
          ...manifest.source_attempts,
          ...cutSources,
          ...continued,
        ])
          this.#tombstones.add(id)
      const sourceKeys = manifest.source_attempts.map(executionKey)
      this.#sourceAttempts.push(...sourceKeys)
      const relays = this.#ledger.relayParents()
      this.#cuts.install(prefixes.value)
      return ok({
        rollouts: Object.keys(rollouts).length,
        rows: rowCount,
        checkpoint_id: checkpointId,
        tombstones: this.tombstones(),
        source_attempts: sourceKeys,
        relays,
        ...(cuts === undefined ? {} : { generation_cuts_restored: prefixes.value.length }),
      })
    })
    if (!result.ok && this.fence.phase === 'restore_failed_paused')
      this.#state = 'restore_failed_paused'
    return result
  }

  /** `model-admission/resume`: reopen admission and retire the checkpoint id. */
  resume(checkpointId: string): Result<{ state: 'accepting'; workers: number }, CutoverError> {
    const role = this.#roleCheck()
    if (!role.ok) return role
    if (this.#restoreExpected && this.fence.phase !== 'restored_paused')
      return err(cutoverError('invalid_phase', 'this process expects a restore before it resumes'))
    return this.fence.run(checkpointId, FENCE_OPS.modelResume, () => {
      this.#restoreExpected = false
      this.#state = 'accepting'
      this.#workers.reopen()
      return ok({ state: 'accepting' as const, workers: this.#workers.connectedCount })
    })
  }

  /** Restored-parent relay entries: N+1 key → parent call, and whether it was consumed. */
  relays(): readonly {
    readonly key: string
    readonly parent: string
    readonly consumed: boolean
  }[] {
    return this.#ledger.relays()
  }
}

// Longer than ~400 lines on purpose: the agent participant is one state machine
// (docs/protocol.md §3.3, §4.3) whose execution-level API and control routes share its executions,
// tombstones and fence; a split would hand that state across files.
import type { CutoverError } from '../contracts/errors.ts'
import { cutoverError } from '../contracts/errors.ts'
import type { JsonValue } from '../json.ts'
import { canonicalJson } from '../json.ts'
import type { Digest } from '../ports.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import type { CheckpointDirectory } from '../directory/CheckpointDirectory.ts'
import type { AgentCommitResult } from '../directory/commitAgentNamespace.ts'
import { commitAgentSteps } from '../directory/commitAgentNamespace.ts'
import { loadAgentNamespace, loadAgentSteps } from '../directory/loadAgentNamespace.ts'
import { createDirectoryView } from '../directory/DirectoryView.ts'
import type { VerifySteps } from '../directory/verifySteps.ts'
import { runSteps } from '../directory/verifySteps.ts'
import { ControlFence, FENCE_OPS, FENCE_PHASES, forRequest } from './ControlFence.ts'
import { fencedCommitSteps } from './fencedCommit.ts'
import type { AgentBoundaryRecord } from '../records/AgentBoundaryRecord.ts'
import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import { executionKey } from '../records/ExecutionIdentity.ts'
import type { TombstoneReader } from './TombstoneSet.ts'
import { TombstoneSet } from './TombstoneSet.ts'

/**
 * Agent execution states (docs/protocol.md §4.3; `parked` carries the with/without-boundary
 * sub-state).
 */
export type ExecutionState = 'running' | 'park_requested' | 'parked' | 'completed' | 'retired'

/** A completion receipt (docs/protocol.md §6.3). */
export interface CompletionReceipt {
  readonly rollout_id: string
  readonly attempt_index: number
  readonly execution_generation: number
  readonly result_identity: string
  readonly result_digest: string
}

/** One `/run` execution as plain data. */
export interface Execution {
  readonly rollout_id: string
  readonly attempt_index: number
  readonly generation: number
  state: ExecutionState
  boundary: AgentBoundaryRecord | null
  /** True while the execution sits on a committed boundary (no model/tool call open). */
  atBoundary: boolean
  result: JsonValue | null
  receipt: CompletionReceipt | null
  /** The restored boundary this execution continues from, when it claimed one. */
  readonly continuation: AgentBoundaryRecord | null
  /**
   * Parked with a boundary and its outer `/run` task cancelled: exportable, retired at resume
   * (§4.3).
   */
  detached?: boolean
}

/** `prepare` / `status` report (docs/protocol.md §3.3). */
export interface AgentStatus {
  readonly state: 'accepting' | 'preparing'
  readonly ready_to_commit: boolean
  readonly running: number
  readonly parked_with_boundary: number
  readonly parked_without_boundary: number
  readonly completed_unacknowledged: number
  readonly blocking_attempts: readonly string[]
  readonly completed_unacknowledged_attempts: readonly CompletionReceipt[]
}

/**
 * The whitebox agent participant (docs/protocol.md §3.3, §4.3, §6.3): executions with generations,
 * committed turn boundaries, park at safe boundaries, readiness, retire, completion receipts with
 * exact all-or-nothing acknowledgement, and restored continuations claimed by exactly one `/run`.
 */
export class AgentParticipant {
  readonly instanceName: string
  readonly fence = new ControlFence()
  readonly #digest: Digest
  #accepting = true
  readonly #executions = new Map<string, Execution>()
  readonly #generations = new Map<string, number>()
  readonly #tombstones = new TombstoneSet()
  readonly #acknowledged = new Map<string, CompletionReceipt>()
  /** Restored continuations: N+1 key → N's boundary; claimed by the first `/run` for the key. */
  readonly #continuations = new Map<string, AgentBoundaryRecord>()
  readonly #claimed = new Set<string>()
  /**
   * Executions running or asked to park, kept as states change (views read it after every event).
   */
  #running = 0
  /**
   * Bumped by every change `#status` reads; the controller asks for status after every event while
   * it waits.
   */
  #version = 0
  #statusCache: { readonly version: number; readonly report: AgentStatus } | null = null
  #served = false
  #lastCommitDigest: string | null = null
  #restoreExpected: boolean

  /**
   * `restoreExpected`: a replacement process boots with admission closed and refuses resume until
   * restored.
   */
  constructor(
    digest: Digest,
    instanceName = 'agent',
    options: { readonly restoreExpected?: boolean } = {},
  ) {
    this.#digest = digest
    this.instanceName = instanceName
    this.#restoreExpected = options.restoreExpected ?? false
    if (this.#restoreExpected) this.#accepting = false
  }

  get accepting(): boolean {
    return this.#accepting
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
  execution(id: ExecutionIdentity): Execution | undefined {
    return this.#executions.get(executionKey(id))
  }
  /**
   * Executions running or asked to park: O(1), views call this after every event (a scan per event
   * was quadratic).
   */
  runningCount(): number {
    return this.#running
  }
  executions(): readonly Execution[] {
    return [...this.#executions.values()]
  }
  /** Continuation keys installed by restore (N+1 identities). */
  continuations(): readonly string[] {
    return [...this.#continuations.keys()].sort()
  }

  /**
   * `begin`: fenced or acknowledged keys → `stale_attempt`; a live execution →
   * `duplicate_execution` (a completed one replays its result); closed admission →
   * `agent_admission_closed`; a restored continuation is claimed exactly once.
   */
  begin(id: ExecutionIdentity): Result<{ execution: Execution; replayed: boolean }, CutoverError> {
    const key = executionKey(id)
    if (this.#tombstones.has(key) || this.#acknowledged.has(key))
      return err(cutoverError('stale_attempt', `attempt ${key} is fenced`))
    const existing = this.#executions.get(key)
    if (existing !== undefined) {
      if (existing.state === 'completed' && existing.result !== null)
        return ok({ execution: existing, replayed: true })
      return err(
        cutoverError(
          'duplicate_execution',
          `attempt ${key} already has a live execution (generation ${existing.generation})`,
        ),
      )
    }
    if (!this.#accepting)
      return err(
        cutoverError('agent_admission_closed', 'agent admission is closed for a checkpoint'),
      )
    const continuation = this.#continuations.get(key) ?? null
    if (continuation !== null) {
      if (this.#claimed.has(key))
        return err(
          cutoverError('duplicate_execution', `restored continuation ${key} is already claimed`),
        )
      this.#claimed.add(key)
    }
    const generation = (this.#generations.get(key) ?? 0) + 1
    this.#generations.set(key, generation)
    this.#served = true
    const execution: Execution = {
      rollout_id: id.rollout_id,
      attempt_index: id.attempt_index,
      generation,
      state: 'running',
      boundary: continuation,
      atBoundary: true,
      result: null,
      receipt: null,
      continuation,
    }
    this.#executions.set(key, execution)
    this.#running++
    this.#version++
    return ok({ execution, replayed: false })
  }

  #owner(id: ExecutionIdentity, generation: number): Result<Execution, CutoverError> {
    const key = executionKey(id)
    if (this.#tombstones.has(key))
      return err(cutoverError('stale_attempt', `attempt ${key} is fenced`))
    const e = this.#executions.get(key)
    if (e === undefined || e.generation !== generation)
      return err(
        cutoverError(
          'stale_attempt',
          `generation ${generation} of ${key} no longer owns the execution`,
        ),
      )
    return ok(e)
  }

  /**
   * The execution leaves its boundary to call the model or a tool (it is now between boundaries).
   */
  leaveBoundary(id: ExecutionIdentity, generation: number): Result<Execution, CutoverError> {
    const owner = this.#owner(id, generation)
    if (!owner.ok) return owner
    if (owner.value.state === 'parked' || owner.value.state === 'park_requested')
      return err(
        cutoverError(
          'checkpoint_parked',
          `execution ${executionKey(id)} is parked for a checkpoint`,
        ),
      )
    owner.value.atBoundary = false
    this.#version++
    return owner
  }

  /**
   * `commit_boundary`: identity and ownership checked; index strictly increasing; parks if
   * requested.
   */
  commitBoundary(
    id: ExecutionIdentity,
    generation: number,
    record: AgentBoundaryRecord,
  ): Result<Execution, CutoverError> {
    const owner = this.#owner(id, generation)
    if (!owner.ok) return owner
    const e = owner.value
    if (record.rollout_id !== id.rollout_id || record.attempt_index !== id.attempt_index)
      return err(
        cutoverError('agent_checkpoint_error', 'boundary identity does not match the execution'),
      )
    if (
      e.boundary !== null &&
      e.boundary.attempt_index === id.attempt_index &&
      record.boundary_index <= e.boundary.boundary_index
    ) {
      if (canonicalJson(record) === canonicalJson(e.boundary)) return ok(e)
      return err(
        cutoverError(
          'agent_checkpoint_error',
          `boundary index ${record.boundary_index} does not increase`,
        ),
      )
    }
    e.boundary = record
    e.atBoundary = true
    this.#version++
    if (e.state === 'park_requested') this.#setState(e, 'parked')
    return ok(e)
  }

  /**
   * Generation-safe cut (docs/protocol.md §11.5): the execution's model call was cut with a durable
   * disposition, so it parks on its last committed boundary; attempt N+1 re-issues the call from
   * there and continues it from the prefix. Only while preparing, and only with a boundary.
   */
  parkAtCut(
    checkpointId: string,
    id: ExecutionIdentity,
  ): Result<{ parked: boolean }, CutoverError> {
    const check = this.fence.requirePhase(checkpointId, ['preparing', 'prepared'])
    if (!check.ok) return check
    const e = this.#executions.get(executionKey(id))
    if (
      e === undefined ||
      e.boundary === null ||
      !(e.state === 'running' || e.state === 'park_requested')
    )
      return ok({ parked: false })
    e.atBoundary = true
    this.#setState(e, 'parked')
    if (this.#status().ready_to_commit) this.fence.markPrepared(checkpointId)
    return ok({ parked: true })
  }

  /** A boundary-less park (a downstream `checkpoint_parked` refusal before any boundary). */
  park(id: ExecutionIdentity, generation: number): Result<Execution, CutoverError> {
    const owner = this.#owner(id, generation)
    if (!owner.ok) return owner
    this.#setState(owner.value, 'parked')
    return owner
  }

  /** `finish(completed)`: the result and its receipt are retained until acknowledged. */
  finish(
    id: ExecutionIdentity,
    generation: number,
    outcome: 'completed' | 'failed' | 'cancelled',
    result: JsonValue,
  ): Result<CompletionReceipt | null, CutoverError> {
    const owner = this.#owner(id, generation)
    if (!owner.ok) return owner
    const e = owner.value
    if (outcome !== 'completed') {
      if (outcome === 'cancelled' && e.state === 'parked' && e.boundary !== null && e.atBoundary) {
        // §4.3: the outer task is detached, the parked execution stays exportable until resume.
        e.detached = true
        return ok(null)
      }
      this.#retireExecution(e)
      return ok(null)
    }
    const named =
      result !== null && typeof result === 'object' && !Array.isArray(result)
        ? result['id']
        : undefined
    // One canonical encoding and one digest of the result serve its identity (when unnamed) and its
    // receipt.
    const digest = this.#digest.sha256Hex(canonicalJson(result))
    const identity = typeof named === 'string' ? named : digest
    this.#setState(e, 'completed')
    e.result = result
    this.#version++
    e.receipt = {
      rollout_id: e.rollout_id,
      attempt_index: e.attempt_index,
      execution_generation: e.generation,
      result_identity: identity.slice(0, 512),
      result_digest: digest,
    }
    return ok(e.receipt)
  }

  #retireExecution(e: Execution): void {
    const key = executionKey(e)
    this.#setState(e, 'retired')
    this.#tombstones.add(key)
    this.#executions.delete(key)
    this.#version++
  }

  /** Every state change of an execution goes through here, so `#running` stays exact. */
  #setState(e: Execution, state: ExecutionState): void {
    this.#running += (isRunning(state) ? 1 : 0) - (isRunning(e.state) ? 1 : 0)
    e.state = state
    this.#version++
  }

  /**
   * The readiness report, recomputed only after a change (a scan of every execution per poll was
   * quadratic while draining).
   */
  #status(): AgentStatus {
    const cached = this.#statusCache
    if (cached !== null && cached.version === this.#version) return cached.report
    const report = this.#scanStatus()
    this.#statusCache = { version: this.#version, report }
    return report
  }

  #scanStatus(): AgentStatus {
    let running = 0
    let withB = 0
    let withoutB = 0
    const blocking: string[] = []
    const completed: CompletionReceipt[] = []
    // The map's key is the execution's key (set once in `begin`): no string built per execution per
    // scan.
    for (const [key, e] of this.#executions) {
      if (e.state === 'running' || e.state === 'park_requested') {
        running++
        blocking.push(key)
      } else if (e.state === 'parked') {
        if (e.boundary !== null && e.atBoundary) withB++
        else {
          withoutB++
          blocking.push(key)
        }
      } else if (e.state === 'completed' && e.receipt !== null) completed.push(e.receipt)
    }
    return {
      state: this.#accepting ? 'accepting' : 'preparing',
      ready_to_commit: running === 0 && withoutB === 0 && completed.length === 0,
      running,
      parked_with_boundary: withB,
      parked_without_boundary: withoutB,
      completed_unacknowledged: completed.length,
      blocking_attempts: blocking.sort(),
      completed_unacknowledged_attempts: completed,
    }
  }

  /**
   * `prepare`: close admission; executions on a boundary park now, the others are asked to park at
   * their next boundary. Returns the report; `status` marks prepared once `ready_to_commit`.
   */
  prepare(checkpointId: string, deadline: number): Result<AgentStatus, CutoverError> {
    return this.fence.run(
      checkpointId,
      FENCE_OPS.prepare,
      () => {
        this.#accepting = false
        this.#version++
        for (const e of this.#executions.values()) {
          if (e.state !== 'running') continue
          this.#setState(e, e.atBoundary && e.boundary !== null ? 'parked' : 'park_requested')
        }
        const report = this.#status()
        if (report.ready_to_commit) this.fence.markPrepared(checkpointId)
        return ok(report)
      },
      deadline,
    )
  }

  /**
   * `status` (any phase, idle included; stale/conflict still checked): readiness; marks prepared
   * once ready.
   */
  status(checkpointId: string): Result<AgentStatus, CutoverError> {
    const check = this.fence.requirePhase(checkpointId, FENCE_PHASES)
    if (!check.ok) return check
    const report = this.#status()
    if (report.ready_to_commit) this.fence.markPrepared(checkpointId)
    return ok(report)
  }

  /**
   * `GET /completion-receipt?rollout_id&attempt_index` (auth only): the retained receipt of a
   * completed execution.
   */
  completionReceipt(id: ExecutionIdentity): Result<CompletionReceipt, CutoverError> {
    const key = executionKey(id)
    const acked = this.#acknowledged.get(key)
    if (acked !== undefined) return ok(acked)
    const e = this.#executions.get(key)
    if (e === undefined || e.state !== 'completed' || e.receipt === null)
      return err(
        cutoverError('completed_execution_acknowledgement_error', `no completed execution ${key}`),
      )
    return ok(e.receipt)
  }

  /**
   * `POST /acknowledge` (auth only): one exact receipt → `{acknowledged, idempotent}`; the batch
   * rules apply to it.
   */
  acknowledgeOne(
    receipt: CompletionReceipt,
  ): Result<{ acknowledged: boolean; idempotent: boolean }, CutoverError> {
    const r = this.acknowledge([receipt])
    if (!r.ok) return r
    return ok({ acknowledged: true, idempotent: r.value.idempotent === 1 })
  }

  /**
   * The deadline passed without readiness: `agent_prepare_incomplete`; park requests are reverted
   * and the fence returns to idle with admission still closed (the controller resumes or aborts).
   */
  prepareDeadline(checkpointId: string): Result<AgentStatus, CutoverError> {
    const check = this.fence.requirePhase(checkpointId, ['preparing', 'prepared'])
    if (!check.ok) return check
    const report = this.#status()
    if (report.ready_to_commit) {
      this.fence.markPrepared(checkpointId)
      return ok(report)
    }
    for (const e of this.#executions.values())
      if (e.state === 'park_requested') this.#setState(e, 'running')
    // A failed prepare returns the fence to idle (§4.1); admission stays closed until resume/abort
    // (§10.3).
    this.fence.failPrepare(checkpointId)
    return err(
      cutoverError(
        'agent_prepare_incomplete',
        `not ready: running ${report.running}, parked_without_boundary ${report.parked_without_boundary}, completed_unacknowledged ${report.completed_unacknowledged} (${report.blocking_attempts.join(', ')})`,
      ),
    )
  }

  /**
   * `retire` (not fenced; idle/preparing/prepared): tombstone and drop; a completed execution is
   * refused.
   */
  retire(
    checkpointId: string,
    id: ExecutionIdentity,
  ): Result<
    { retired: boolean; tombstoned: boolean; completed_unacknowledged?: true },
    CutoverError
  > {
    const check = this.fence.requirePhase(checkpointId, ['idle', 'preparing', 'prepared'])
    if (!check.ok) return check
    const key = executionKey(id)
    const e = this.#executions.get(key)
    if (e !== undefined && e.state === 'completed')
      return ok({ retired: false, tombstoned: false, completed_unacknowledged: true })
    if (e !== undefined) this.#retireExecution(e)
    else this.#tombstones.add(key)
    return ok({ retired: true, tombstoned: true })
  }

  /**
   * `acknowledge-completed`: validate the whole batch first (all-or-nothing); an identical,
   * already-acknowledged receipt is an idempotent success; any mismatch releases nothing.
   */
  acknowledge(
    receipts: readonly CompletionReceipt[],
  ): Result<{ acknowledged: readonly CompletionReceipt[]; idempotent: number }, CutoverError> {
    if (receipts.length === 0)
      return err(
        cutoverError('completed_execution_acknowledgement_error', 'empty acknowledgement batch'),
      )
    const keys = new Set<string>()
    let idempotent = 0
    for (const r of receipts) {
      const key = executionKey(r)
      if (keys.has(key))
        return err(
          cutoverError('completed_execution_acknowledgement_error', `duplicate receipt for ${key}`),
        )
      keys.add(key)
      const acked = this.#acknowledged.get(key)
      if (acked !== undefined) {
        if (acked !== r && canonicalJson(acked) !== canonicalJson(r))
          return err(
            cutoverError(
              'completed_execution_acknowledgement_error',
              `receipt for ${key} does not match the acknowledged one`,
            ),
          )
        idempotent++
        continue
      }
      const e = this.#executions.get(key)
      if (e === undefined || e.state !== 'completed' || e.receipt === null)
        return err(
          cutoverError(
            'completed_execution_acknowledgement_error',
            `no completed execution ${key}`,
          ),
        )
      // The very receipt object `finish` returned (the in-process case) matches without encoding it
      // twice.
      if (e.receipt !== r && canonicalJson(e.receipt) !== canonicalJson(r))
        return err(
          cutoverError(
            'completed_execution_acknowledgement_error',
            `receipt for ${key} does not match (generation/identity/digest)`,
          ),
        )
    }
    for (const r of receipts) {
      const key = executionKey(r)
      if (this.#acknowledged.has(key)) continue
      this.#acknowledged.set(key, r)
      const e = this.#executions.get(key)
      if (e !== undefined) this.#retireExecution(e)
    }
    if (
      this.fence.phase === 'preparing' &&
      this.fence.activeCheckpointId !== null &&
      this.#status().ready_to_commit
    )
      this.fence.markPrepared(this.fence.activeCheckpointId)
    return ok({ acknowledged: receipts, idempotent })
  }

  /**
   * `commit`: the parked-with-boundary records go to `D/agent` through the directory layer (one
   * file per record, manifest last); returns the continuation roots the ledger commit needs.
   */
  commit(checkpointId: string, dir: CheckpointDirectory): Result<AgentCommitResult, CutoverError> {
    return runSteps(this.commitSteps(checkpointId, dir))
  }

  /**
   * `commit` writing one bounded batch of record files per step (the caller performs each batch's
   * writes in between).
   */
  *commitSteps(
    checkpointId: string,
    dir: CheckpointDirectory,
  ): Generator<void, Result<AgentCommitResult, CutoverError>, void> {
    const durable = (): boolean => {
      const loaded = loadAgentNamespace(dir, this.#digest)
      return loaded.ok && loaded.value.manifest.checkpoint_id === checkpointId
    }
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this
    return yield* fencedCommitSteps(
      this.fence,
      checkpointId,
      dir,
      'agent_checkpoint_error',
      durable,
      function* () {
        const records: AgentBoundaryRecord[] = []
        for (const e of self.#executions.values())
          if (e.state === 'parked' && e.boundary !== null && e.atBoundary) records.push(e.boundary)
        const committed = yield* commitAgentSteps(dir, self.#digest, {
          checkpoint_id: checkpointId,
          instance_name: self.instanceName,
          records,
        })
        if (committed.ok) self.#lastCommitDigest = committed.value.manifest_digest
        return committed
      },
    )
  }

  /**
   * `restore` into a fresh process: the directory layer verifies the namespace (manifest, every
   * digest, record schemas); then each record is installed as the continuation of
   * `(rollout, N+1)` and N is tombstoned. Nothing is installed unless everything verified.
   */
  restore(
    checkpointId: string,
    dir: CheckpointDirectory,
  ): Result<
    {
      records: number
      source_checkpoint_id: string
      continuations: readonly string[]
      records_list: readonly AgentBoundaryRecord[]
    },
    CutoverError
  > {
    return runSteps(this.restoreSteps(checkpointId, dir))
  }

  /**
   * `restore` with the namespace read and verified one bounded batch of files at a time first
   * (reads only: the fence still decides, and a refused call changes nothing), then installed at
   * once.
   */
  *restoreSteps(
    checkpointId: string,
    dir: CheckpointDirectory,
  ): VerifySteps<
    Result<
      {
        records: number
        source_checkpoint_id: string
        continuations: readonly string[]
        records_list: readonly AgentBoundaryRecord[]
      },
      CutoverError
    >
  > {
    // A finished id, or the same restore asked of another directory, is refused before D is read.
    const restore = forRequest(FENCE_OPS.restore, dir.location)
    const admitted = this.fence.admits(checkpointId, restore.operation, restore.request)
    if (!admitted.ok) return admitted
    const loaded = yield* loadAgentSteps(createDirectoryView(dir, this.#digest))
    return this.fence.run(checkpointId, restore, () => {
      if (this.#served || this.#executions.size > 0)
        return err(
          cutoverError(
            'agent_checkpoint_error',
            'restore needs a fresh agent process (live executions)',
          ),
        )
      if (!loaded.ok) return loaded
      const source = loaded.value.manifest.checkpoint_id
      if (source !== checkpointId)
        return err(
          cutoverError(
            'agent_checkpoint_error',
            `agent/manifest.json holds checkpoint ${source}, not ${checkpointId}`,
          ),
        )
      const records = loaded.value.records
      this.#accepting = false
      this.#version++
      const installed: string[] = []
      for (const rec of records) {
        const next = { rollout_id: rec.rollout_id, attempt_index: rec.attempt_index + 1 }
        this.#continuations.set(executionKey(next), rec)
        this.#tombstones.add(rec)
        installed.push(executionKey(next))
      }
      return ok({
        records: records.length,
        source_checkpoint_id: source,
        continuations: installed,
        records_list: records,
      })
    })
  }

  /** `resume`: reopen admission, release parked executions, retire the id. */
  resume(checkpointId: string): Result<{ state: 'accepting'; released: number }, CutoverError> {
    if (this.#restoreExpected && this.fence.phase !== 'restored_paused')
      return err(cutoverError('invalid_phase', 'this process expects a restore before it resumes'))
    return this.fence.run(checkpointId, FENCE_OPS.agentResume, () => {
      this.#restoreExpected = false
      this.#accepting = true
      this.#version++
      let released = 0
      for (const e of [...this.#executions.values()]) {
        if (e.detached === true) this.#retireExecution(e)
        else if (e.state === 'parked' || e.state === 'park_requested') {
          this.#setState(e, 'running')
          released++
        }
      }
      return ok({ state: 'accepting' as const, released })
    })
  }

  /**
   * Restored-continuation discard (restored_paused only, §6.4): the replacement restarts from its
   * input.
   */
  discardContinuation(
    checkpointId: string,
    id: ExecutionIdentity,
  ): Result<{ discarded: boolean }, CutoverError> {
    const check = this.fence.requirePhase(checkpointId, ['restored_paused'])
    if (!check.ok) return check
    return ok({ discarded: this.#continuations.delete(executionKey(id)) })
  }
}

function isRunning(state: ExecutionState): boolean {
  return state === 'running' || state === 'park_requested'
}

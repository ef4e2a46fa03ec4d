// Longer than ~400 lines on purpose: the controller is one transaction (docs/protocol.md §3.5–3.7)
// whose prepare, retire, commit, restore, resume and abort read and write the same in-progress
// state; its host is ControllerHost.ts, the fleet it drives Fleet.ts, the waiting helpers
// controllerWork.ts.
import { ENV_NAMES } from '../contracts/environments.ts'
import type { CutoverError } from '../contracts/errors.ts'
import { cutoverError } from '../contracts/errors.ts'
import type {
  ControlEventType,
  ControlFields,
  TracePayloads,
  TracePhase,
} from '../contracts/trace.ts'
import type { EnvName } from '../contracts/environments.ts'
import { directoryWriteCode } from '../directory/CheckpointDirectory.ts'
import { encodeJsonFile } from '../directory/jsonFile.ts'
import { AGGREGATE_MANIFEST_PATH } from '../directory/layout.ts'
import type { AggregateParticipant } from '../directory/manifests.ts'
import { loadPublishedSteps } from '../directory/loadPublishedCheckpoint.ts'
import { publishAggregateSteps } from '../directory/publishAggregateManifest.ts'
import { publishCheckpointMarker } from '../directory/publishCheckpointMarker.ts'
import { publishTokenStoreManifest } from '../directory/publishTokenStoreManifest.ts'
import type { VerifySteps } from '../directory/verifySteps.ts'
import { noSteps } from '../directory/verifySteps.ts'
import type { JsonValue } from '../json.ts'
import type { AgentBoundaryRecord } from '../records/AgentBoundaryRecord.ts'
import type { ContinuationRoot } from '../records/ContinuationRoot.ts'
import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import { executionKey, parseKey } from '../records/ExecutionIdentity.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import type { ControllerHost, SteppedDirectory } from './ControllerHost.ts'
import type { Work } from './controllerWork.ts'
import { ask, atOnce, runNow } from './controllerWork.ts'
import type { Fleet, Reply } from './Fleet.ts'
import { fleetParticipants, participantSetMismatch } from './fleetParticipants.ts'

/** Test-only switches that break the protocol on purpose, so invariants can be seen to fail. */
export interface ControllerTestOptions {
  /** Resume agents before the policy model and resources (breaks `resume-order`). */
  readonly resumeAgentsFirst?: boolean
  /** Publish the aggregate manifest before the resources commit (breaks `manifest-last`). */
  readonly aggregateBeforeResources?: boolean
  /**
   * Hold acknowledgements back to the checkpoint and send them after the agents prepare (breaks
   * `acks-before-prepare`).
   */
  readonly acksAfterPrepare?: boolean
  /**
   * The policy model refuses every commit of the first checkpoint: the retries run out and that
   * checkpoint aborts after its prepare (after a generation cut, the egress fence is released on
   * abort); the retaken checkpoint commits.
   */
  readonly firstCheckpointCommitRefused?: boolean
}

type Stage =
  | 'idle'
  | 'preparing'
  | 'retiring'
  | 'committing'
  | 'restoring'
  | 'restored'
  | 'resuming'
  | 'done'
  | 'aborted'

/**
 * The checkpoint controller (docs/protocol.md §3.5–3.7): prepare (agents park → model drains →
 * resources export), straggler retirement at the deadline, commit (agents → model → resources →
 * aggregate → token store → checkpoint.json), restore under N+1 into fresh processes, resume
 * (model and resources before agents, then dispatch), and abort. A small class: its state is the
 * transaction in progress; every message it sends goes through the host as a trace event.
 */
export class Controller {
  readonly #host: ControllerHost
  readonly #deadlineMs: number
  readonly #test: ControllerTestOptions
  #stage: Stage = 'idle'
  #cid = ''
  #deadline = 0
  #retired: ExecutionIdentity[] = []
  #commitAttempts = 0
  #records: readonly AgentBoundaryRecord[] = []
  #roots: readonly ContinuationRoot[] = []
  /** False for a restore asked on its own (`restorePublished`): it stops restored and paused. */
  #resumeAfterRestore = true
  #results: { [key: string]: JsonValue } = {}
  /**
   * The participants a prepare was sent to for the checkpoint this controller began, whom an
   * abort resumes (a lost answer cannot prove one did not pause); null when this controller did
   * not send the prepare (`cutover checkpoint abort` in a fresh process), so an abort resumes all.
   */
  #prepared: Set<string> | null = null
  /** True while the resources export runs as a task (the drain wait is over; no more pokes). */
  #exporting = false
  /** Number of checkpoints attempted; the second one is the retaken checkpoint after an abort. */
  attempts = 0
  readonly #maxAttempts: number

  constructor(
    host: ControllerHost,
    deadlineMs: number,
    test: ControllerTestOptions = {},
    maxAttempts = 2,
  ) {
    this.#host = host
    this.#deadlineMs = deadlineMs
    this.#test = test
    this.#maxAttempts = maxAttempts
  }

  get stage(): Stage {
    return this.#stage
  }
  get checkpointId(): string {
    return this.#cid
  }
  /**
   * True when completed results wait for the checkpoint's flush instead of being acknowledged at
   * once (a test switch).
   */
  get defersAcknowledgements(): boolean {
    return this.#test.acksAfterPrepare === true
  }
  /**
   * True while the controller waits for the fleet to drain (the host pokes it after each event).
   */
  get waiting(): boolean {
    return (this.#stage === 'preparing' || this.#stage === 'retiring') && !this.#exporting
  }

  #emitResult<T, E extends ControlEventType>(
    phase: TracePhase,
    to: string,
    type: E,
    r: Result<T, CutoverError>,
    ...[payload]: Partial<ControlFields<E>> extends ControlFields<E>
      ? [ControlFields<E>?]
      : [ControlFields<E>]
  ): Result<T, CutoverError> {
    const extra: { [key: string]: JsonValue } = {
      checkpoint_id: this.#cid,
      ...(payload as { [key: string]: JsonValue } | undefined),
    }
    if (r.ok) {
      if (r.value !== undefined && r.value !== null && typeof r.value === 'object')
        extra['result'] = toJson(r.value)
    } else extra['message'] = r.error.message
    this.#host.emit(
      phase,
      'controller',
      to,
      type,
      extra as TracePayloads[E],
      r.ok ? 'ok' : r.error.code,
    )
    return r
  }

  /** Runs `work` now (see `runNow`): to its end when the fleet answers at once. */
  #runNow(work: Work): void {
    runNow(work, (task) => this.#host.runTask(task))
  }

  /**
   * Starts checkpoint `cid`: freeze dispatch, flush acknowledgements, park agents, pause the model.
   */
  begin(cid: string): void {
    this.#runNow(this.#begin(cid))
  }

  *#begin(cid: string): Work {
    this.attempts++
    this.#cid = cid
    this.#stage = 'preparing'
    this.#retired = []
    this.#prepared = new Set()
    this.#commitAttempts = 0
    this.#results = {}
    const now = this.#host.now()
    this.#deadline = now + this.#deadlineMs
    this.#host.freezeDispatch()
    // The actor fails fast on a deadline already passed (§3.1); Gym participants would instead
    // treat it as a zero budget, so nothing is sent to them.
    if (this.#deadline <= now)
      return yield* this.#abort(
        `deadline_exceeded: deadline ${this.#deadline} is not after now (${now})`,
      )
    // SC step 2 (§3.6): completed results are acknowledged with their exact receipts before any
    // participant is asked to prepare; the actor's prepare fails while any remain unreleased
    // (§3.5).
    const acksAfter = this.#test.acksAfterPrepare === true
    if (!acksAfter) {
      this.#flushAcknowledgements()
      const unreleased = this.#host.unacknowledged().length
      if (unreleased > 0)
        return yield* this.#abort(
          `prepare_incomplete: streamed agent results remain unacknowledged (${unreleased})`,
        )
    }
    const w = this.#host.fleet()
    this.#prepared.add('agent')
    const agent = this.#emitResult(
      'prepare',
      'agent',
      'agent.prepare',
      yield* ask(w.agent.prepare(cid, this.#deadline)),
      { deadline_ms: this.#deadline },
    )
    if (!agent.ok) return yield* this.#abort('prepare failed')
    if (acksAfter) this.#flushAcknowledgements()
    this.#prepared.add('policy_model')
    const pause = this.#emitResult(
      'prepare',
      'policy_model',
      'model.pause',
      yield* ask(w.model.pause(cid, this.#deadline)),
      { deadline_ms: this.#deadline },
    )
    if (!pause.ok) return yield* this.#abort('model pause failed')
    if (w.model.workerCount > 1) {
      for (let k = 0; k < w.model.workerCount; k++) {
        this.#host.emit(
          'prepare',
          'policy_model',
          `model_worker_${k}`,
          'model.worker_close',
          { checkpoint_id: cid, worker: k },
          'ok',
        )
        const reply = w.model.workerAck(k)
        if (reply === undefined) continue // the worker is gone: no acknowledgement ever comes
        const ack = yield* ask(reply)
        this.#host.emit(
          'prepare',
          `model_worker_${k}`,
          'policy_model',
          'model.worker_ack',
          { checkpoint_id: cid, worker: k },
          ack.ok ? 'ok' : ack.error.code,
        )
      }
    }
    this.#host.schedule(this.#deadlineMs, () => this.#runNow(this.#onDeadline(cid)))
    yield* this.#poke()
  }

  /** Acknowledges every completed result with its exact receipt (SC step 2, §3.6). */
  #flushAcknowledgements(): void {
    const unacked = this.#host.unacknowledged()
    if (unacked.length > 0) this.#host.acknowledge(unacked, 'prepare')
  }

  /** Re-checks readiness; the host calls this after every event while the controller waits. */
  poke(): void {
    if (!this.waiting) return
    this.#runNow(this.#poke())
  }

  *#poke(): Work {
    if (!this.waiting) return
    const w = this.#host.fleet()
    // The model first: while it drains, the agent's readiness report (a scan of every execution
    // after any change) is not worth asking for after every event.
    if (w.model.admission !== 'paused') return
    const agentReady = yield* ask(w.agent.status(this.#cid))
    if (!agentReady.ok || !agentReady.value.ready_to_commit) return
    this.#emitResult(
      'prepare',
      'policy_model',
      'model.status',
      yield* ask(w.model.status(this.#cid, this.#host.now())),
    )
    this.#emitResult('prepare', 'agent', 'agent.status', agentReady)
    this.#exporting = true
    this.#host.runTask(this.#prepareResources())
  }

  *#onDeadline(cid: string): Work {
    if (this.#cid !== cid || !this.waiting || this.#stage === 'retiring') return
    const w = this.#host.fleet()
    const status = this.#emitResult(
      'prepare',
      'agent',
      'agent.status',
      yield* ask(w.agent.status(cid)),
    )
    const model = this.#emitResult(
      'prepare',
      'policy_model',
      'model.status',
      yield* ask(w.model.status(cid, this.#host.now())),
    )
    // The policy model did not reach `paused` by the deadline (§3.5 prepare: else
    // prepare_incomplete).
    if (!model.ok) return yield* this.#abort(`prepare_incomplete: ${model.error.code}`)
    if (!status.ok) return yield* this.#abort(status.error.code)
    const blocking = status.value.blocking_attempts
    const inflight = model.value.inflight.map((i) => executionKey(i))
    const stragglers = [...new Set([...blocking, ...inflight])].sort()
    if (stragglers.length === 0) {
      if (status.value.completed_unacknowledged > 0) {
        this.#emitResult(
          'prepare',
          'agent',
          'agent.prepare_deadline',
          yield* ask(w.agent.prepareDeadline(cid)),
        )
        return yield* this.#abort('agent_prepare_incomplete')
      }
      return yield* this.#poke()
    }
    // Generation-safe (docs/protocol.md §11): the model cuts the generations still running at a
    // durable token boundary instead; only the stragglers it did not freeze are sacrificed.
    const cut = new Set((this.#host.cutGenerations?.(cid) ?? []).map(executionKey))
    const retire = stragglers.filter((key) => !cut.has(key))
    if (retire.length === 0) return
    // Sacrifice the stragglers instead of failing the checkpoint (docs/protocol.md §6.1).
    this.#stage = 'retiring'
    for (const key of retire) {
      const id = parseKey(key)
      this.#retired.push(id)
      this.#emitResult(
        'retire',
        'policy_model',
        'model.abort_inflight',
        yield* ask(w.model.abortInflight(cid, id)),
        { rollout_id: id.rollout_id, attempt_index: id.attempt_index },
      )
      this.#emitResult('retire', 'agent', 'agent.retire', yield* ask(w.agent.retire(cid, id)), {
        rollout_id: id.rollout_id,
        attempt_index: id.attempt_index,
      })
      // The cancelled request tasks exit a moment later (the fleet reports it); only then can the
      // model commit, which the host's next poke sees.
      this.#host.log('retire', 'rollout.retired', {
        rollout_id: id.rollout_id,
        attempt_index: id.attempt_index,
      })
    }
  }

  /** Each environment's export (and each straggler's retirement) is one step. */
  *#prepareResources(): Work {
    const w = this.#host.fleet()
    try {
      for (const env of ENV_NAMES) {
        this.#prepared?.add(`resources_${env}`)
        const r = this.#emitResult(
          'prepare',
          `resources_${env}`,
          'resources.prepare',
          yield* ask(w.resources[env].prepare(this.#cid, this.#deadline, this.#host.now())),
        )
        if (!r.ok) return yield* this.#abort(r.error.code)
        this.#results[`prepare:${w.resources[env].serverName}`] = toJson(r.value)
        yield
      }
      for (const id of this.#retired) {
        const env = this.#envOf(id)
        const r = this.#emitResult(
          'retire',
          `resources_${env}`,
          'resources.retire',
          yield* ask(w.resources[env].retire(this.#cid, id)),
          { rollout_id: id.rollout_id, attempt_index: id.attempt_index },
        )
        // A session lock not taken before the deadline: its state cannot leave the cut safely.
        if (!r.ok) return yield* this.#abort(r.error.code)
        yield
      }
    } finally {
      this.#exporting = false
    }
    this.#stage = 'committing'
    this.#host.schedule(1, () => this.commit())
  }

  /**
   * Rollouts are dealt round-robin, so the index names the environment
   * (docs/protocol.md §12.1).
   */
  #envOf(id: ExecutionIdentity): EnvName {
    const index = Number(/\d+$/.exec(id.rollout_id)?.[0] ?? '0')
    return ENV_NAMES[index % ENV_NAMES.length] as EnvName
  }

  /**
   * The commit half on its own (`cutover checkpoint commit`): checkpoint `cid`, whose participants
   * a separate prepare left prepared, is committed and published as in a whole cycle; the host's
   * `published` decides whether a restore follows.
   */
  commitPrepared(cid: string): void {
    this.#cid = cid
    this.#stage = 'committing'
    this.#prepared = null
    this.#commitAttempts = 0
    this.#results = {}
    this.#retired = []
    this.commit()
  }

  /**
   * The restore half on its own (`cutover checkpoint restore`): published checkpoint `cid` is
   * restored into the host's spawned fleet (participant set checked first); it stops `restored`,
   * paused, unless `resume`. A failed restore resumes every participant it was sent to.
   */
  restorePublished(cid: string, resume = false): void {
    this.#cid = cid
    this.#stage = 'restoring'
    this.#prepared = null
    this.#resumeAfterRestore = resume
    this.restore()
  }

  /**
   * Commit: agents → model (with continuation roots) → resources → aggregate → token store →
   * marker.
   */
  commit(): void {
    if (this.#stage !== 'committing') return
    this.#host.runTask(this.#commit())
  }

  /** Performs the directory's staged writes, one per step (each is traced as it happens). */
  *#flush(dir: SteppedDirectory): Work {
    while (dir.flushOne()) yield
  }

  /** `r`, unless performing its staged writes failed: then the write failure (a failed commit). */
  #written<T>(dir: SteppedDirectory, r: Result<T, CutoverError>): Result<T, CutoverError> {
    const failure = dir.takeFailure()
    return failure === undefined
      ? r
      : err(cutoverError('internal_error', `directory write failed: ${failure}`))
  }

  /**
   * One participant call per step, then its staged writes one per step, then its answer: the
   * trace order is the protocol's (participant files, manifest, then the participant's reply).
   */
  *#commit(): Work {
    if (this.#stage !== 'committing') return
    this.#commitAttempts++
    const attempt = this.#commitAttempts
    const w = this.#host.fleet()
    let writer = 'controller'
    const opened = this.#open(() => writer)
    if (!opened.ok) {
      this.#host.log('commit', 'controller.publish_refused', {
        checkpoint_id: this.#cid,
        manifest: 'directory',
        code: opened.error.code,
        message: opened.error.message,
      })
      return yield* this.#retryCommit(opened.error)
    }
    const dir = opened.value
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this
    function* step<T>(
      who: string,
      to: string,
      type: 'agent.commit' | 'model.commit' | 'resources.commit',
      run: () => Reply<T>,
      stepped: () => Generator<void, Result<T, CutoverError>, void> | undefined,
    ): Work<Result<T, CutoverError>> {
      let r: Result<T, CutoverError>
      const batches = stepped()
      if (batches !== undefined) {
        // A stepped commit stages one batch of files at a time; each batch's writes are performed
        // (one per step, each traced) before the next batch is encoded.
        for (;;) {
          writer = who
          let next: IteratorResult<void, Result<T, CutoverError>>
          try {
            next = batches.next()
          } finally {
            writer = 'controller'
          }
          if (next.done === true) {
            r = next.value
            break
          }
          yield* self.#flush(dir)
        }
      } else {
        writer = who
        let reply: Reply<T>
        try {
          reply = run()
        } finally {
          writer = 'controller'
        }
        r = yield* ask(reply)
      }
      yield* self.#flush(dir)
      const answered = self.#emitResult('commit', to, type, self.#written(dir, r), { attempt })
      yield
      return answered
    }
    const agent = yield* step(
      'agent',
      'agent',
      'agent.commit',
      () => w.agent.commit(this.#cid, dir),
      () => w.agent.commitSteps?.(this.#cid, dir),
    )
    if (!agent.ok) return yield* this.#retryCommit(agent.error)
    this.#roots = agent.value.continuation_roots
    const refused = this.#test.firstCheckpointCommitRefused === true && this.attempts === 1
    const model = yield* step(
      'policy_model',
      'policy_model',
      'model.commit',
      () =>
        refused
          ? err(cutoverError('internal_error', 'test: the policy model refuses this commit'))
          : w.model.commit(this.#cid, dir, this.#roots),
      () => (refused ? undefined : w.model.commitSteps?.(this.#cid, dir, this.#roots)),
    )
    if (!model.ok) return yield* this.#retryCommit(model.error)
    // Results are keyed `<operation>:<participant_id>`, the id being the server's name (as the real
    // controller keys them).
    this.#results[`commit:${w.agent.instanceName}`] = toJson({
      records: agent.value.records,
      manifest_digest: agent.value.manifest_digest,
    })
    this.#results[`commit:${w.model.serverName}`] = toJson(model.value)
    const fleetSet = fleetParticipants(w)
    const participants: AggregateParticipant[] = fleetSet.filter((p) => p.kind !== 'resources')
    if (this.#test.aggregateBeforeResources === true) {
      // The broken controller writes an aggregate itself, bypassing the directory layer (which
      // would refuse it: the agent's boundaries name resources that have not committed yet).
      dir.writeFile(
        AGGREGATE_MANIFEST_PATH,
        encodeJsonFile({ schema_version: 1, checkpoint_id: this.#cid, premature: true }),
      )
      yield* this.#flush(dir)
      dir.takeFailure()
    }
    for (const env of ENV_NAMES) {
      const r = yield* step(
        `resources_${env}`,
        `resources_${env}`,
        'resources.commit',
        () => w.resources[env].commit(this.#cid, dir),
        () => w.resources[env].commitSteps?.(this.#cid, dir),
      )
      if (!r.ok) return yield* this.#retryCommit(r.error)
      const name = w.resources[env].serverName
      this.#results[`commit:${name}`] = toJson(r.value)
      participants.push(
        fleetSet.find((p) => p.kind === 'resources' && p.name === name) as AggregateParticipant,
      )
    }
    const published = yield* this.#publish(dir, participants, (who) => (writer = who))
    if (!published.ok) return yield* this.#retryCommit(published.error)
    this.#records = []
    this.#host.published(this.#cid)
    this.#stage = 'restoring'
    this.#host.schedule(5, () => this.restore())
  }

  /**
   * Aggregate → token store → `checkpoint.json`, each through the directory layer (which verifies
   * every namespace before sealing it), each its own step. A crashed write is thrown by the port:
   * a failed commit. Staged writes are performed before anything is logged about the call.
   */
  *#publish(
    dir: SteppedDirectory,
    participants: readonly AggregateParticipant[],
    writes: (who: string) => void,
  ): Work<Result<unknown, CutoverError>> {
    const digest = this.#host.digest
    const call = function* <T>(
      self: Controller,
      who: string,
      what: string,
      run: () => VerifySteps<Result<T, CutoverError>>,
    ): Work<Result<T, CutoverError>> {
      let r: Result<T, CutoverError>
      try {
        writes(who)
        r = yield* self.#verifying('commit', run())
      } catch (e) {
        writes('controller')
        yield* self.#flush(dir)
        if (e instanceof Error && e.name === 'DirectoryWriteError')
          return err(cutoverError(directoryWriteCode(e) ?? 'internal_error', e.message))
        throw e
      } finally {
        writes('controller')
      }
      yield* self.#flush(dir)
      r = self.#written(dir, r)
      if (!r.ok)
        self.#host.log('commit', 'controller.publish_refused', {
          checkpoint_id: self.#cid,
          manifest: what,
          code: r.error.code,
          message: r.error.message,
        })
      yield
      return r
    }
    const aggregate = yield* call(this, 'controller', 'aggregate', () =>
      publishAggregateSteps(dir, digest, {
        checkpoint_id: this.#cid,
        participants,
        participant_results: this.#results,
        live_membership: this.#host.liveMembership(),
      }),
    )
    if (!aggregate.ok) return aggregate
    const keys = this.#host.stagingKeys(this.#roots)
    this.#host.emit(
      'commit',
      'controller',
      'token_store',
      'token_store.snapshot',
      { checkpoint_id: this.#cid, staging_keys: keys.length },
      'ok',
    )
    yield
    const segments = this.#host.cutSegments?.() ?? []
    const ts = yield* call(this, 'token_store', 'token_store', () =>
      noSteps(
        publishTokenStoreManifest(dir, digest, {
          checkpoint_id: this.#cid,
          staging_keys: keys,
          snapshot: this.#host.tokenSnapshot(keys),
          ...(segments.length === 0 ? {} : { segments }),
        }),
      ),
    )
    if (!ts.ok) return ts
    return yield* call(this, 'controller', 'marker', () =>
      noSteps(publishCheckpointMarker(dir, digest, { checkpoint_id: this.#cid })),
    )
  }

  /**
   * Runs a stepped directory check (`VerifySteps`): each bounded batch of files `reader` reads and
   * hashes is traced as `directory.verify` and ends a step, so no step checks a whole checkpoint.
   */
  *#verifying<T>(phase: TracePhase, steps: VerifySteps<T>, reader = 'controller'): Work<T> {
    for (;;) {
      const next = steps.next()
      if (next.done === true) return next.value
      if (next.value.recheck === true) {
        yield
        continue
      }
      this.#host.emit(
        phase,
        reader,
        'directory',
        'directory.verify',
        { checkpoint_id: this.#cid, ...next.value },
        'ok',
      )
      yield
    }
  }

  /**
   * The checkpoint's directory, or why it cannot be one (a real directory that is a file or a
   * symlink, a full disk): the host's port throws `DirectoryWriteError`, here a refusal with its
   * code.
   */
  #open(
    writer: () => string,
    mode: 'write' | 'read' = 'write',
  ): Result<SteppedDirectory, CutoverError> {
    try {
      return ok(this.#host.openDirectory(this.#cid, writer, mode))
    } catch (e) {
      if (!(e instanceof Error && e.name === 'DirectoryWriteError')) throw e
      return err(cutoverError(directoryWriteCode(e) ?? 'checkpoint_dir_invalid', e.message))
    }
  }

  *#retryCommit(error: CutoverError): Work {
    if (this.#commitAttempts >= 3) return yield* this.#abort(`commit failed: ${error.code}`)
    // The crashed commit is retried over the same directory; finished participants replay their
    // results.
    this.#host.schedule(2, () => this.commit())
  }

  /** Restore under N+1 into fresh participant instances (paused), then resume. */
  restore(): void {
    if (this.#stage !== 'restoring') return
    this.#host.runTask(this.#restore())
  }

  /** One participant's restore per step (each reads and verifies its namespace). */
  *#restore(): Work {
    if (this.#stage !== 'restoring') return
    const old = this.#host.fleet()
    const fresh = this.#host.spawnFleet()
    const opened = this.#open(() => 'directory', 'read')
    const touched: string[] = []
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this
    // Participants that answered restore with stale_checkpoint: they finished this checkpoint
    // before this attempt (restored, then resumed by an abandoned attempt) and are live.
    const live: string[] = []
    function* fail(why: string): Work {
      // Abort the restore: every fresh participant a restore was sent to is resumed, then
      // discarded; the original processes (still committed_paused) resume and the checkpoint is
      // retaken later.
      self.#stage = 'aborted'
      // Dependency order even here (model, resources, then agent). Every participant is asked,
      // so a stale_checkpoint answer names each one already live; an untouched idle one answers
      // invalid_phase, recorded as already accepting.
      if (touched.length > 0)
        for (const p of ['policy_model', ...ENV_NAMES.map((e) => `resources_${e}`), 'agent']) {
          const resumed = yield* self.#resumeOne('abort', fresh, p)
          // A stale_checkpoint answer to resume names another participant that is already live.
          if (!resumed.ok && resumed.error.code === 'stale_checkpoint' && !live.includes(p))
            live.push(p)
        }
      self.#host.log('abort', 'controller.restore_abandoned', {
        checkpoint_id: self.#cid,
        reason: live.length === 0 ? why : alreadyLive(self.#cid, live),
      })
      yield* self.#resumeAll('abort', old, null)
    }
    // Decision (issue #29, a half-restored fleet): a fleet is called restored only when every
    // participant restored this checkpoint in this attempt. A participant that already finished
    // it (an earlier attempt restored and then resumed it) answers stale_checkpoint, and the
    // restore fails with participant_already_live naming every such participant, rather than
    // re-restoring into fresh processes: the controller of `cutover checkpoint restore` drives the
    // processes a fleet file lists and cannot start or replace them, and a live participant has
    // served traffic since, so only its operator can replace it (`cutover fleet` spawns a fresh
    // fleet for every restore and never meets one).
    const refused = (who: string, error: CutoverError): Work => {
      if (error.code !== 'stale_checkpoint') return fail(error.code)
      live.push(who)
      return fail(alreadyLive(this.#cid, live))
    }
    if (!opened.ok) return yield* fail(`${opened.error.code}: ${opened.error.message}`)
    const dir = opened.value
    // The actor reads checkpoint.json and the aggregate manifest (verified) and compares the
    // committed participant set with the current fleet before any participant restores (§3.5,
    // §5.5).
    const published = yield* this.#verifying(
      'restore',
      loadPublishedSteps(dir, this.#host.digest, this.#cid),
    )
    if (!published.ok) return yield* fail(`${published.error.code}: ${published.error.message}`)
    const mismatch = participantSetMismatch(
      published.value.manifest.participants,
      fleetParticipants(fresh),
    )
    if (mismatch !== null) return yield* fail(`fleet_mismatch: ${mismatch}`)
    touched.push('policy_model')
    const m = fresh.model
    const model = this.#emitResult(
      'restore',
      'policy_model',
      'model.restore',
      m.restoreSteps
        ? yield* this.#verifying('restore', m.restoreSteps(this.#cid, dir), 'policy_model')
        : yield* ask(m.restore(this.#cid, dir)),
    )
    if (!model.ok) return yield* refused('policy_model', model.error)
    yield
    touched.push('agent')
    const a = fresh.agent
    const agent = this.#emitResult(
      'restore',
      'agent',
      'agent.restore',
      a.restoreSteps
        ? yield* this.#verifying('restore', a.restoreSteps(this.#cid, dir), 'agent')
        : yield* ask(a.restore(this.#cid, dir)),
    )
    if (!agent.ok) return yield* refused('agent', agent.error)
    this.#records = agent.value.records_list
    yield
    for (const env of ENV_NAMES) {
      touched.push(`resources_${env}`)
      const x = fresh.resources[env]
      const r = x.restoreSteps
        ? yield* this.#verifying('restore', x.restoreSteps(this.#cid, dir), `resources_${env}`)
        : yield* ask(x.restore(this.#cid, dir))
      this.#emitResult('restore', `resources_${env}`, 'resources.restore', r, {
        expected: this.#records.filter((x) => x.resource_state_revisions[env] !== undefined).length,
        // `sessions`: every generation's answer has it (the earlier one has no `activated` list).
        activated: r.ok ? r.value.sessions : 0,
      })
      if (!r.ok) return yield* refused(`resources_${env}`, r.error)
      yield
    }
    this.#host.adoptFleet(fresh)
    if (!this.#resumeAfterRestore) {
      this.#stage = 'restored'
      return
    }
    this.#stage = 'resuming'
    const records = this.#records
    this.#host.schedule(5, () => this.#host.runTask(this.#resumeAll('resume', fresh, records)))
  }

  *#resumeOne(
    phase: TracePhase,
    w: Fleet,
    participant: string,
  ): Work<Result<unknown, CutoverError>> {
    // During an abort an `invalid_phase` answer means the participant is already accepting.
    const settled = (r: Result<unknown, CutoverError>): Result<unknown, CutoverError> =>
      phase === 'abort' && !r.ok && r.error.code === 'invalid_phase'
        ? ok({ state: 'already_accepting' })
        : r
    if (participant === 'policy_model')
      return this.#emitResult(
        phase,
        'policy_model',
        'model.resume',
        settled(yield* ask(w.model.resume(this.#cid))),
      )
    if (participant === 'agent')
      return this.#emitResult(
        phase,
        'agent',
        'agent.resume',
        settled(yield* ask(w.agent.resume(this.#cid))),
      )
    const env = participant.slice('resources_'.length) as EnvName
    return this.#emitResult(
      phase,
      participant,
      'resources.resume',
      settled(yield* ask(w.resources[env].resume(this.#cid))),
    )
  }

  /**
   * Resume: dependencies (policy model, resources) before agents, then dispatch; one participant
   * per step.
   */
  *#resumeAll(
    phase: TracePhase,
    w: Fleet,
    restored: readonly AgentBoundaryRecord[] | null,
    only: ReadonlySet<string> | null = null,
  ): Work {
    const deps = ['policy_model', ...ENV_NAMES.map((e) => `resources_${e}`)]
    const order = this.#test.resumeAgentsFirst === true ? ['agent', ...deps] : [...deps, 'agent']
    for (const p of order) {
      if (only !== null && !only.has(p)) continue
      yield* this.#resumeOne(phase, w, p)
      yield
    }
    const retired = this.#retired
    if (this.#stage !== 'aborted') this.#stage = 'done'
    this.#host.afterResume(restored, retired)
  }

  /**
   * Abort: resume every participant a prepare was sent to (all of them when this controller did
   * not send it; an `invalid_phase` answer means already accepting), unfreeze.
   */
  abort(reason: string): void {
    this.#runNow(this.#abort(reason))
  }

  *#abort(reason: string): Work {
    const w = this.#host.fleet()
    this.#stage = 'aborted'
    this.#host.log('abort', 'controller.abort', { checkpoint_id: this.#cid, reason })
    // One step: an abort is a handful of calls, and its callers expect the fleet resumed when it
    // ends.
    yield* atOnce(this.#resumeAll('abort', w, null, this.#prepared))
  }

  /** Whether the controller may retake a checkpoint after an abort. */
  get canRetry(): boolean {
    return this.#stage === 'aborted' && this.attempts < this.#maxAttempts
  }
}

/** The reason of a restore refused because participants already finished the checkpoint. */
function alreadyLive(checkpointId: string, live: readonly string[]): string {
  return `participant_already_live: ${live.join(', ')} already restored and resumed checkpoint ${checkpointId} in an earlier attempt and ${live.length === 1 ? 'is' : 'are'} live; restore into fresh processes (--restore-expected) for ${live.length === 1 ? 'it' : 'them'}`
}

function toJson(value: unknown): JsonValue {
  return JSON.parse(JSON.stringify(value)) as JsonValue
}

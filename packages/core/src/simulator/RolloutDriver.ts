// Longer than ~400 lines on purpose: one rollout's whole lifecycle (dispatch → start → boundary →
// model call → env step → finish → acknowledge, parking and continuing across a checkpoint, a
// generation cut and its continuation under N+1) reads as one story; splitting the steps would
// scatter the `RolloutRt` state they hand to each other. The cut round itself is
// generationCutRound.ts.
import { ENV_NAMES } from '../contracts/environments.ts'
import type { CutoverError } from '../contracts/errors.ts'
import type { TracePhase } from '../contracts/trace.ts'
import type { JsonValue } from '../json.ts'
import type { CompletionReceipt } from '../protocol/AgentParticipant.ts'
import { GenerationWorker } from '../protocol/GenerationWorker.ts'
import type { RestoredCut } from '../protocol/GenerationCuts.ts'
import { TOKENS_PER_MS, generationTokenIds } from '../protocol/generationTokens.ts'
import type { ModelAdmission } from '../protocol/PolicyModel.ts'
import type { AgentBoundaryRecord } from '../records/AgentBoundaryRecord.ts'
import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import { executionKey } from '../records/ExecutionIdentity.ts'
import type { Result } from '../result.ts'
import { PyRandom } from '../rng/PyRandom.ts'
import type { Engine } from './Engine.ts'
import { replayStaleRequests } from './replayStaleRequests.ts'
import type { RolloutOutcome } from './RolloutOutcome.ts'
import type { Decision, DriverState, RolloutPlan } from './Workload.ts'
import {
  INITIAL_DRIVER_STATE,
  applyEnvResponse,
  applyStart,
  decide,
  startRequest,
  verifyRequest,
} from './Workload.ts'
import type { World } from './World.ts'

const THINK_MIN = 15
const THINK_SPAN = 26
const MODEL_MIN = 8
const MODEL_SPAN = 13
const ENV_MIN = 1
const ENV_SPAN = 4

/** One rollout's runtime state in the engine. */
interface RolloutRt {
  readonly plan: RolloutPlan
  attempt: number
  generation: number
  status: 'pending' | 'running' | 'parked' | 'completed' | 'retired'
  state: DriverState
  boundaryIndex: number
  lastCall: string | null
  revision: number
  /** What to run when a parked rollout is released. */
  waiting: (() => void) | null
  /** The world generation the execution lives in (a replaced world's callbacks are dead). */
  world: number
  /** Seeded on its first draw: seeding is costly and a baseline run touches few rollouts. */
  rng: PyRandom | null
  receipt: CompletionReceipt | null
  lastSession: unknown
  continued: boolean
  /** True while a model or env call is open (the rollout is between boundaries). */
  busy: boolean
}

type SessionState = 'bound' | 'exported' | 'retired' | 'terminal' | 'uncertain' | 'restored'

/** A continued cut call's output against the same call never interrupted (`equivalence`). */
export interface CutContinuation {
  readonly rollout_id: string
  readonly model_call_id: string
  readonly cut_model_call_id: string
  readonly equal: boolean
}

/** A generation-safe run's admitted call, as the cut round asks about it. */
export interface CutTicket {
  readonly rollout_id: string
  readonly model_call_id: string
  readonly worker: number
  readonly admitted_at: number
}

/**
 * The rollouts of a run, driven through the live world as the framework's agent loop would: each
 * rollout's seeded think / model / env latencies, its boundaries (where a checkpoint parks it), its
 * completion and acknowledgement, and its continuation under N+1 after a restore.
 */
export class RolloutDriver {
  readonly outcomes = new Map<string, RolloutOutcome>()
  /** Rollouts restored from a boundary (continued under N+1). */
  readonly continued = new Set<string>()
  readonly cutContinuations: CutContinuation[] = []
  readonly #engine: Engine
  readonly #rollouts: RolloutRt[]
  readonly #byId = new Map<string, RolloutRt>()
  readonly #gen: GenerationWorker
  /** Generation-safe runs: one generation worker per model worker, and the calls they decode. */
  readonly #workers: GenerationWorker[] = []
  readonly #tickets = new Map<string, CutTicket>()
  /**
   * Tickets whose generation finished behind the egress fence → the delivery of their held
   * response.
   */
  readonly #held = new Map<string, () => void>()

  constructor(engine: Engine, plans: readonly RolloutPlan[]) {
    this.#engine = engine
    this.#gen = new GenerationWorker(engine.tokenStore)
    this.#rollouts = plans.map((plan) => ({
      plan,
      attempt: 0,
      generation: 0,
      status: 'pending',
      state: INITIAL_DRIVER_STATE,
      boundaryIndex: 0,
      lastCall: null,
      revision: 0,
      waiting: null,
      world: 0,
      rng: null,
      receipt: null,
      lastSession: undefined,
      continued: false,
      busy: false,
    }))
    for (const r of this.#rollouts) this.#byId.set(r.plan.rollout_id, r)
  }

  /** Queues every rollout's dispatch (or only those named). */
  start(only: ReadonlySet<string> | undefined): void {
    for (const r of this.#rollouts) {
      if (only !== undefined && !only.has(r.plan.rollout_id)) continue
      const start = (r.plan.index % 16) * 4
      this.#engine.at(start, () => this.#dispatch(r))
    }
  }

  /** True while an `unacked_result` rollout has not finished yet. */
  awaitingUnacked(): boolean {
    for (const id of this.#engine.faults.unackedRollouts) {
      const r = this.#byId.get(id)
      if (
        r !== undefined &&
        (r.status === 'pending' || r.status === 'running' || r.status === 'parked')
      )
        return true
    }
    return false
  }

  // ---- generation-safe cuts ----

  /** The generation worker `k` of the model (generation-safe runs). */
  generationWorker(k: number): GenerationWorker {
    return (this.#workers[k] ??= new GenerationWorker(this.#engine.tokenStore, k))
  }
  /** The admitted call behind `ticket`, while it decodes. */
  cutTicket(ticket: string): CutTicket | undefined {
    return this.#tickets.get(ticket)
  }
  /** Tokens the call of `ticket` has generated by now. */
  tokensAt(ticket: string): number {
    const t = this.#tickets.get(ticket)
    return t === undefined
      ? 0
      : this.generationWorker(t.worker).generatedAt(t.model_call_id, this.#engine.now)
  }
  /**
   * The rollout's call was frozen with a durable disposition and its execution parked on its last
   * boundary: it waits there (the same processes resuming re-issue the call from that boundary).
   */
  parkedAtCut(rolloutId: string): void {
    const r = this.#byId.get(rolloutId)
    if (r === undefined || r.status !== 'running') return
    r.status = 'parked'
    r.busy = false
    r.waiting = () => this.#later(r, this.#draw(r, THINK_MIN, THINK_SPAN), () => this.#turn(r))
  }

  /**
   * The checkpoint aborted after the cut (docs/protocol.md §11.3 step 4): the frozen call of `id`
   * was not lost, so its execution leaves the cut's park and waits for the call again instead of
   * re-issuing it; a response held by the fence is delivered now, once. (Committed: the held
   * response is dropped; attempt N+1 continues the call.)
   */
  releasedFromCut(
    id: ExecutionIdentity,
    ticket: string,
    disposition: 'committed' | 'aborted',
  ): void {
    const deliver = this.#held.get(ticket)
    this.#held.delete(ticket)
    if (disposition === 'committed') return
    const r = this.#byId.get(id.rollout_id)
    if (r === undefined || r.attempt !== id.attempt_index) return
    if (r.status === 'parked') {
      r.status = 'running'
      r.busy = true
      r.waiting = null
    }
    deliver?.()
  }

  // ---- what the controller's host asks ----

  /** Receipts of completed, unacknowledged results. */
  unacknowledged(): readonly JsonValue[] {
    return this.#rollouts
      .filter((r) => r.status === 'completed' && r.receipt !== null)
      .map((r) => r.receipt as unknown as JsonValue)
  }

  /** The registry's live membership (running and parked executions, completed ones as terminal). */
  liveMembership(): readonly {
    rollout_id: string
    attempt_index: number
    state: 'running' | 'terminal'
  }[] {
    return this.#rollouts
      .filter((r) => r.status === 'parked' || r.status === 'running' || r.status === 'completed')
      .map((r) => ({
        rollout_id: r.plan.rollout_id,
        attempt_index: r.attempt,
        state: r.status === 'completed' ? ('terminal' as const) : ('running' as const),
      }))
  }

  /** The controller retired the rollout's straggling attempt. */
  retired(rolloutId: string): void {
    const r = this.#byId.get(rolloutId)
    if (r === undefined) return
    r.status = 'retired'
    this.#engine.recorder.attempt(r.plan.rollout_id, r.attempt, r.plan.env, 'retired')
  }

  /**
   * After `resources.prepare`: each exported session's prepare snapshot, for the Sessions/Tables
   * diff.
   */
  recordPrepared(): void {
    const { world, recorder } = this.#engine
    for (const env of ENV_NAMES) {
      for (const snap of world.resources[env].preparedSnapshots()) {
        const key = executionKey(snap)
        if (!recorder.prepared.has(key))
          recorder.prepared.set(key, { step: recorder.step, state: snap.state })
        const r = this.#byId.get(snap.rollout_id)
        if (r !== undefined && r.attempt === snap.attempt_index)
          this.#sessionRecord(
            r,
            'exported',
            world.resources[env].sessionOf(snap),
            snap.state_revision,
            world.resources[env].sessionIdOf(snap),
          )
      }
    }
  }

  /** After `resources.retire`: the retired rollouts' sessions are gone. */
  recordRetired(): void {
    for (const r of this.#rollouts)
      if (r.status === 'retired' && this.#engine.recorder.sessions.has(executionKey(this.#id(r))))
        this.#sessionRecord(r, 'retired', undefined, null, null)
  }

  /**
   * Acknowledgements before prepare; `unacked_result` replays a mismatching batch, then the exact
   * one twice.
   */
  acknowledgeAtPrepare(receipts: readonly JsonValue[]): Result<unknown, CutoverError> {
    const list = receipts as unknown as CompletionReceipt[]
    if (this.#engine.faults.unackedRollouts.size > 0) {
      // Receipt replay: a batch with one mismatching receipt releases nothing; then the exact
      // receipts are acknowledged; then the same acknowledgement is replayed (idempotent).
      const first = list[0]
      if (first !== undefined)
        this.#acknowledge(
          [...receipts, { ...first, result_digest: '0'.repeat(64) } as unknown as JsonValue],
          'prepare',
        )
      const r = this.#acknowledge(receipts, 'prepare')
      this.#acknowledge(receipts, 'prepare')
      this.#engine.faults.unackedReplayed()
      return r
    }
    return this.#acknowledge(receipts, 'prepare')
  }

  /**
   * The processes were replaced: every execution of the old world is gone; parked ones continue
   * under N+1.
   */
  processesReplaced(): void {
    for (const r of this.#rollouts)
      if (r.status === 'parked' || r.status === 'running') r.waiting = null
  }

  /**
   * Same processes resumed: release parked executions and queued dispatches, then restart the
   * retired.
   */
  releaseAll(retired: readonly ExecutionIdentity[]): void {
    for (const r of this.#rollouts) {
      const w = r.waiting
      if (w !== null && (r.status === 'parked' || r.status === 'pending')) {
        r.waiting = null
        if (r.status === 'parked') r.status = 'running'
        w()
      }
    }
    for (const id of retired) this.#redispatch(id)
  }

  /** Dispatches every restored continuation (and the rest), one rollout per step. */
  *continueRestored(
    restored: readonly AgentBoundaryRecord[],
    retired: readonly ExecutionIdentity[],
  ): Generator<undefined, void> {
    const { world, faults, recorder } = this.#engine
    const byRollout = new Map(restored.map((rec) => [rec.rollout_id, rec]))
    for (const r of this.#rollouts) {
      const rec = byRollout.get(r.plan.rollout_id)
      if (rec !== undefined) {
        // The checkpoint recorded attempt N; the replacement continues as N+1.
        recorder.attempt(r.plan.rollout_id, r.attempt, r.plan.env, 'continued')
        r.attempt = rec.attempt_index + 1
        r.status = 'pending'
        r.waiting = null
        this.#sessionRecord(
          r,
          'restored',
          world.resources[r.plan.env].sessionOf(this.#id(r)),
          world.resources[r.plan.env].revisionOf(this.#id(r)),
          `checkpoint:${r.plan.rollout_id}:a${r.attempt}`,
        )
        const dup = faults.claimsTwice(r.plan.rollout_id)
        this.#dispatch(r)
        if (dup) this.#dispatch(r)
        yield
      } else if (r.status === 'pending') {
        const w = r.waiting
        r.waiting = null
        if (w !== null) {
          w()
          yield
        }
      }
    }
    for (const id of retired) {
      this.#redispatch(id)
      yield
    }
    replayStaleRequests(this.#engine, (id) => {
      const r = this.#byId.get(id)
      return r === undefined ? undefined : { env: r.plan.env, attempt: r.attempt }
    })
  }

  // ---- one rollout ----

  #sessionRecord(
    r: RolloutRt,
    state: SessionState,
    session: unknown,
    revision: number | null,
    sessionId: string | null,
  ): void {
    if (!this.#engine.options.record) return
    const key = executionKey({ rollout_id: r.plan.rollout_id, attempt_index: r.attempt })
    // The one-line summary is computed lazily when a view asks (codec.describe can be costly).
    const summary = session === undefined ? (state === 'terminal' ? 'closed' : '—') : ''
    this.#engine.recorder.session(key, r.plan.env, {
      row: {
        key,
        rollout_id: r.plan.rollout_id,
        attempt: r.attempt,
        environment: r.plan.env,
        state,
        revision,
        session_id: sessionId,
        summary,
      },
      session,
    })
  }

  /** Rollout traffic while the controller retires or commits is traced as `prepare`. */
  #phase(): TracePhase {
    const p = this.#engine.phase
    return p === 'retire' || p === 'commit' ? 'prepare' : p
  }
  #id(r: RolloutRt): ExecutionIdentity {
    return { rollout_id: r.plan.rollout_id, attempt_index: r.attempt }
  }
  // Trace payloads spell out `rollout_id, attempt_index` instead of spreading an ids object: on
  // this V8 a spread followed by more properties costs microseconds per object and builds a larger
  // one (measured 4–12 µs and ≈ 300 B against ≈ 20 ns and 64 B for the literal); the key order, and
  // so the trace, is the same.
  #draw(r: RolloutRt, min: number, span: number): number {
    return min + (r.rng ??= PyRandom.fromSeed(r.plan.seed + 7n)).randbelow(span)
  }
  #alive(r: RolloutRt, world: number, attempt: number): boolean {
    return (
      r.world === world &&
      r.attempt === attempt &&
      this.#engine.world.generation === world &&
      r.status !== 'retired'
    )
  }
  #later(r: RolloutRt, delay: number, run: () => void): void {
    const world = r.world
    const attempt = r.attempt
    this.#engine.at(delay, () => {
      if (this.#alive(r, world, attempt)) run()
    })
  }

  #dispatch(r: RolloutRt): void {
    const e = this.#engine
    if (e.frozen) {
      r.waiting = () => this.#dispatch(r)
      return
    }
    const begin = e.world.agent.begin(this.#id(r))
    e.emit(
      this.#phase(),
      'controller',
      'agent',
      'run.dispatch',
      {
        rollout_id: r.plan.rollout_id,
        attempt_index: r.attempt,
        environment: r.plan.env,
        continued: begin.ok && begin.value.execution.continuation !== null,
        generation: begin.ok ? begin.value.execution.generation : null,
      },
      begin.ok ? 'ok' : begin.error.code,
    )
    if (!begin.ok) return
    r.status = 'running'
    r.world = e.world.generation
    r.generation = begin.value.execution.generation
    // A run that records nothing (the equivalence baseline) keeps no lineage either.
    if (e.options.record) e.recorder.attempt(r.plan.rollout_id, r.attempt, r.plan.env, 'running')
    const cont = begin.value.execution.continuation
    if (cont !== null) {
      const driver = cont.agent_state['driver'] as unknown as DriverState
      r.state = driver
      r.boundaryIndex = cont.boundary_index + 1
      r.lastCall = null
      r.revision = cont.resource_state_revisions[r.plan.env] ?? 0
      r.continued = true
      this.continued.add(r.plan.rollout_id)
      this.#later(r, this.#draw(r, THINK_MIN, THINK_SPAN), () => this.#turn(r))
      return
    }
    r.state = INITIAL_DRIVER_STATE
    r.boundaryIndex = 0
    r.lastCall = null
    r.revision = 0
    this.#later(r, 2, () => this.#start(r))
  }

  #start(r: RolloutRt): void {
    const e = this.#engine
    const req = startRequest(r.plan)
    const res = e.world.resources[r.plan.env]
    const resp = res.handleRequest({
      path: req.path,
      method: 'POST',
      body: req.body,
      identity: this.#id(r),
    })
    e.emit(
      this.#phase(),
      'agent',
      `resources_${r.plan.env}`,
      'env.start',
      {
        rollout_id: r.plan.rollout_id,
        attempt_index: r.attempt,
        path: req.path,
        session_id: resp.sessionId,
        revision: resp.revision,
        status: resp.status,
      },
      resp.code ?? 'ok',
    )
    if (resp.code !== null || resp.status >= 400) return
    r.state = applyStart(r.plan, r.state, resp.body)
    r.revision = resp.revision ?? 0
    r.lastSession = resp.session
    this.#sessionRecord(r, 'bound', resp.session, r.revision, resp.sessionId)
    this.#boundary(r)
  }

  #boundary(r: RolloutRt): void {
    const e = this.#engine
    const record: AgentBoundaryRecord = {
      rollout_id: r.plan.rollout_id,
      attempt_index: r.attempt,
      boundary_index: r.boundaryIndex,
      turn_index: r.state.turn,
      boundary_kind: 'turn_complete',
      output_items: [...r.state.outputs],
      usage: null,
      last_committed_model_call_id: r.lastCall,
      resource_state_revisions: { [r.plan.env]: r.revision },
      agent_state: {
        driver: r.state as unknown as JsonValue,
        environment: r.plan.env,
        task: r.plan.task,
        seed: r.plan.seed.toString(),
      },
      created_at: e.now,
    }
    const c = e.world.agent.commitBoundary(this.#id(r), r.generation, record)
    const parked = c.ok && c.value.state === 'parked'
    e.emit(
      this.#phase(),
      'agent',
      'agent',
      'agent.boundary',
      {
        rollout_id: r.plan.rollout_id,
        attempt_index: r.attempt,
        boundary_index: r.boundaryIndex,
        last_committed_model_call_id: r.lastCall,
        resource_state_revisions: { [r.plan.env]: r.revision },
        parked,
      },
      c.ok ? 'ok' : c.error.code,
    )
    if (!c.ok) return
    r.boundaryIndex++
    r.busy = false
    if (parked) {
      r.status = 'parked'
      r.waiting = () => this.#later(r, this.#draw(r, THINK_MIN, THINK_SPAN), () => this.#turn(r))
      return
    }
    this.#later(r, this.#draw(r, THINK_MIN, THINK_SPAN), () => this.#turn(r))
  }

  #turn(r: RolloutRt): void {
    const e = this.#engine
    // Leaving the boundary (for a model call or the final verify) is refused while parked.
    const leave = e.world.agent.leaveBoundary(this.#id(r), r.generation)
    if (!leave.ok) {
      if (leave.error.code === 'checkpoint_parked') {
        r.status = 'parked'
        r.waiting = () => this.#later(r, this.#draw(r, THINK_MIN, THINK_SPAN), () => this.#turn(r))
      }
      return
    }
    const decision = decide(r.plan, r.state, e.options.workplaceExamples)
    if (decision === null) return this.#finish(r)
    r.busy = true
    const model = e.world.model
    const admit = model.admit(this.#id(r), r.plan.index % model.workerCount)
    e.emit(
      this.#phase(),
      'agent',
      'policy_model',
      'model.request',
      {
        rollout_id: r.plan.rollout_id,
        attempt_index: r.attempt,
        model_call_id: admit.ok ? admit.value.model_call_id : null,
        parent_call_id: admit.ok ? admit.value.parent_call_id : null,
        relay: admit.ok ? admit.value.relay : false,
        turn: r.state.turn,
      },
      admit.ok ? 'ok' : admit.error.code,
    )
    if (!admit.ok) {
      if (admit.error.code === 'checkpoint_parked') {
        e.world.agent.park(this.#id(r), r.generation)
        r.status = 'parked'
        r.waiting = () => this.#later(r, 1, () => this.#turn(r))
      }
      return
    }
    const a = admit.value
    if (e.options.record)
      e.recorder.call(r.plan.rollout_id, r.attempt, {
        model_call_id: a.model_call_id,
        parent_call_id: a.parent_call_id,
        relay: a.relay,
        step: e.recorder.step,
      })
    const latency =
      this.#draw(r, MODEL_MIN, MODEL_SPAN) + e.faults.extraLatency(r.plan.rollout_id, r.attempt)
    const world = e.world
    if (e.config.cut_mode !== 'generation-safe') {
      this.#later(r, latency, () => this.#generated(r, world, a, decision, null))
      return
    }
    // Generation-safe: the call decodes `latency × rate` tokens whose ids are a pure function of
    // (seed, rollout, turn, position); a continued call resumes from its restored prefix instead.
    const turn = r.state.turn
    const restored = r.continued ? model.restoredCutFor(this.#id(r)) : undefined
    if (
      restored !== undefined &&
      !restored.consumed &&
      restored.lease === null &&
      this.#continueCut(r, a, decision, turn, restored)
    )
      return
    const total = Math.max(1, latency * TOKENS_PER_MS)
    this.#decode(r, a, turn, total, 0)
    this.#later(r, latency, () =>
      this.#generated(r, world, a, decision, () =>
        generationTokenIds(r.plan.seed.toString(), r.plan.rollout_id, turn, 0, total),
      ),
    )
  }

  #decode(r: RolloutRt, a: ModelAdmission, turn: number, total: number, from: number): void {
    const e = this.#engine
    this.generationWorker(a.worker).begin(a.model_call_id, {
      seed: r.plan.seed.toString(),
      rollout_id: r.plan.rollout_id,
      call: turn,
      total,
      started_at: e.now,
      from,
    })
    this.#tickets.set(a.ticket, {
      rollout_id: r.plan.rollout_id,
      model_call_id: a.model_call_id,
      worker: a.worker,
      admitted_at: e.now,
    })
  }

  #workerName(k: number): string {
    return this.#engine.world.model.workerCount > 1 ? `model_worker_${k}` : 'generation_worker'
  }

  /**
   * The first call of N+1 continues N's cut call (docs/protocol.md §11.5): its worker claims the
   * restored cut (a second claimant is refused), the prefix is delivered (`staged` from the token
   * store, or `inline` by the framework) and consumed, and decoding resumes at token k. False when
   * the claim was refused (the call is then generated from its input).
   */
  #continueCut(
    r: RolloutRt,
    a: ModelAdmission,
    decision: Decision,
    turn: number,
    restored: RestoredCut,
  ): boolean {
    const e = this.#engine
    const model = e.world.model
    const world = e.world
    const phase = this.#phase()
    const entry = restored.entry
    const cid = e.controller.checkpointId
    const keys = [...(entry.staging_keys ?? [])]
    const claim = (worker: number) => {
      const c = model.claimCut(entry.model_call_id, worker, a.model_call_id)
      e.emit(
        phase,
        this.#workerName(worker),
        'policy_model',
        'generation.claim_cut',
        {
          rollout_id: r.plan.rollout_id,
          attempt_index: r.attempt,
          checkpoint_id: cid,
          worker,
          model_call_id: a.model_call_id,
          cut_model_call_id: entry.model_call_id,
          staging_keys: keys,
        },
        c.ok ? 'ok' : c.error.code,
      )
      return c.ok
    }
    if (!claim(a.worker)) return false
    const twice = e.faults.claimsCutTwice(r.plan.rollout_id)
    const rival = (a.worker + 1) % Math.max(2, model.workerCount)
    if (twice) claim(rival)
    const k = entry.prefix_token_count ?? 0
    const total = Math.max(k, entry.effective_output_limit ?? k)
    // Teaching bug `overlapping-cut-buffers`: decoding resumes one token early, repeating token k −
    // 1.
    const from = e.config.bug === 'overlapping-cut-buffers' ? Math.max(0, k - 1) : k
    const delivery = entry.cut_kind === 'terminal_completion' ? 'inline' : 'staged'
    model.consumeCut(entry.model_call_id, a.worker)
    e.emit(
      phase,
      'policy_model',
      this.#workerName(a.worker),
      'generation.continue',
      {
        rollout_id: r.plan.rollout_id,
        attempt_index: r.attempt,
        worker: a.worker,
        model_call_id: a.model_call_id,
        cut_model_call_id: entry.model_call_id,
        prefix_token_count: k,
        prefix_digest: entry.prefix_digest ?? '',
        prefix_delivery: delivery,
        resume_from: from,
        continuation_token_count: total - from,
      },
      'ok',
    )
    if (twice) claim(rival)
    this.#decode(r, a, turn, total, from)
    const prefix = restored.tokens
    const latency = Math.max(1, Math.ceil((total - from) / TOKENS_PER_MS))
    const seed = r.plan.seed.toString()
    this.#later(r, latency, () =>
      this.#generated(r, world, a, decision, () => {
        const output = [
          ...prefix,
          ...generationTokenIds(seed, r.plan.rollout_id, turn, from, total),
        ]
        const uninterrupted = generationTokenIds(seed, r.plan.rollout_id, turn, 0, total)
        const equal =
          output.length === uninterrupted.length && output.every((t, i) => t === uninterrupted[i])
        this.cutContinuations.push({
          rollout_id: r.plan.rollout_id,
          model_call_id: a.model_call_id,
          cut_model_call_id: entry.model_call_id,
          equal,
        })
        return output
      }),
    )
    return true
  }

  #generated(
    r: RolloutRt,
    world: World,
    a: ModelAdmission,
    decision: Decision,
    tokens: (() => readonly number[]) | null,
  ): void {
    const e = this.#engine
    const { ticket, model_call_id: callId, parent_call_id: parent, relay, prev_len: prevLen } = a
    // task already exited (aborted); the ticket was admitted for this attempt
    if (!world.model.isInflight(ticket)) return
    if (tokens !== null && world.model.egressFenced(ticket)) {
      // Finished behind the egress fence: the response is held (the cut makes it
      // terminal_completion).
      world.model.complete(
        ticket,
        { staging_key: `tq/${callId}`, prev_len: prevLen, delta_len: 0, cum_len: prevLen },
        e.now,
      )
      this.#held.set(ticket, () => this.#generated(r, world, a, decision, tokens))
      return
    }
    this.#tickets.delete(ticket)
    const coords =
      tokens === null
        ? this.#gen.stage(callId, prevLen, decision.text)
        : this.generationWorker(a.worker).stageTokens(callId, prevLen, tokens())
    const phase = this.#phase()
    e.emit(
      phase,
      'policy_model',
      'generation_worker',
      'generation.stage',
      { rollout_id: r.plan.rollout_id, attempt_index: r.attempt, model_call_id: callId },
      'ok',
    )
    e.emit(
      phase,
      'generation_worker',
      'token_store',
      'token.stage',
      {
        rollout_id: r.plan.rollout_id,
        attempt_index: r.attempt,
        model_call_id: callId,
        staging_key: coords.staging_key,
        delta_len: coords.delta_len,
      },
      'ok',
    )
    e.emit(
      phase,
      'generation_worker',
      'policy_model',
      'generation.coordinates',
      {
        rollout_id: r.plan.rollout_id,
        attempt_index: r.attempt,
        model_call_id: callId,
        staging_key: coords.staging_key,
        prev_len: coords.prev_len,
        delta_len: coords.delta_len,
        cum_len: coords.cum_len,
      },
      'ok',
    )
    const row = world.model.complete(ticket, coords, e.now)
    e.emit(
      phase,
      'policy_model',
      'agent',
      'model.response',
      {
        rollout_id: r.plan.rollout_id,
        attempt_index: r.attempt,
        model_call_id: callId,
        parent_call_id: parent,
        relay,
        text: decision.text,
      },
      row.ok ? 'ok' : row.error.code,
    )
    if (!row.ok) return
    r.lastCall = callId
    this.#later(r, this.#draw(r, ENV_MIN, ENV_SPAN), () => this.#envStep(r, decision))
  }

  #envStep(r: RolloutRt, decision: Decision): void {
    const e = this.#engine
    const res = e.world.resources[r.plan.env]
    const requestId = `${executionKey(this.#id(r))}.t${r.state.turn}`
    const resp = res.handleRequest({
      path: decision.route,
      method: 'POST',
      body: decision.body,
      identity: this.#id(r),
      requestId,
      expectedRevision: r.revision,
    })
    e.emit(
      this.#phase(),
      'agent',
      `resources_${r.plan.env}`,
      'env.request',
      {
        rollout_id: r.plan.rollout_id,
        attempt_index: r.attempt,
        path: decision.route,
        request_id: requestId,
        revision_before: resp.revisionBefore,
        revision: resp.revision,
        status: resp.status,
        replayed: resp.replayed,
        success: resp.code === null && resp.status < 400,
      },
      resp.code ?? 'ok',
    )
    if (resp.code !== null) return
    r.revision = resp.revision ?? r.revision
    if (resp.session !== undefined) r.lastSession = resp.session
    this.#sessionRecord(
      r,
      resp.closed ? 'terminal' : 'bound',
      resp.closed ? r.lastSession : resp.session,
      r.revision,
      resp.sessionId,
    )
    r.state = applyEnvResponse(r.plan, r.state, decision, resp.status, resp.body, resp.closed)
    // A terminal step ends the /run loop at once (Gymnasium agent): no boundary to park on.
    if (r.state.done) return this.#finish(r)
    this.#boundary(r)
  }

  #finish(r: RolloutRt): void {
    const e = this.#engine
    const verify = verifyRequest(r.plan, r.state, e.options.workplaceExamples)
    let reward = r.state.reward
    if (verify !== null) {
      const res = e.world.resources[r.plan.env]
      // Terminal and never retried here, so no request id: its receipt would copy the whole echoed
      // row.
      const resp = res.handleRequest({
        path: verify.path,
        method: 'POST',
        body: verify.body,
        identity: this.#id(r),
      })
      const b =
        resp.body !== null && typeof resp.body === 'object' && !Array.isArray(resp.body)
          ? resp.body
          : {}
      reward = typeof b['reward'] === 'number' ? b['reward'] : 0
      e.emit(
        this.#phase(),
        'agent',
        `resources_${r.plan.env}`,
        'env.verify',
        {
          rollout_id: r.plan.rollout_id,
          attempt_index: r.attempt,
          path: verify.path,
          reward,
          revision_before: resp.revisionBefore,
          revision: resp.revision,
          success: resp.code === null && resp.status < 400,
        },
        resp.code ?? 'ok',
      )
      if (resp.code === null)
        this.#sessionRecord(r, 'terminal', r.lastSession, resp.revision, resp.sessionId)
    }
    const codec = e.world.resources[r.plan.env].env.codec
    const last = r.lastSession
    const outcome: RolloutOutcome = {
      rollout_id: r.plan.rollout_id,
      attempt_index: r.attempt,
      reward,
      outputs: [...r.state.outputs],
      env_outputs: [...r.state.env_outputs],
      // Exported only when equivalence asks (codecs can be costly; sessions are immutable).
      finalState: () => {
        if (last === undefined) return null
        const x = codec.exportState(last)
        return x.ok ? x.value : null
      },
    }
    this.outcomes.set(r.plan.rollout_id, outcome)
    const result: JsonValue = { reward, output: [...r.state.outputs] }
    const fin = e.world.agent.finish(this.#id(r), r.generation, 'completed', result)
    r.status = 'completed'
    r.receipt = fin.ok ? fin.value : null
    if (e.options.record) e.recorder.attempt(r.plan.rollout_id, r.attempt, r.plan.env, 'completed')
    e.emit(
      this.#phase(),
      'agent',
      'controller',
      'run.complete',
      {
        rollout_id: r.plan.rollout_id,
        attempt_index: r.attempt,
        reward,
        receipt: r.receipt as unknown as JsonValue,
      },
      fin.ok ? 'ok' : fin.error.code,
    )
    if (r.receipt === null) return
    // Held back (the `unacked_result` fault, or a controller that defers acknowledgements): still
    // unacknowledged at prepare.
    if (
      (e.faults.unackedRollouts.has(r.plan.rollout_id) || e.controller.defersAcknowledgements) &&
      e.controller.stage === 'idle'
    )
      return
    this.#acknowledge([r.receipt as unknown as JsonValue], this.#phase())
  }

  #acknowledge(receipts: readonly JsonValue[], phase: TracePhase): Result<unknown, CutoverError> {
    const list = receipts as unknown as CompletionReceipt[]
    const r = this.#engine.world.agent.acknowledge(list)
    this.#engine.emit(
      phase,
      'controller',
      'agent',
      'agent.acknowledge',
      { receipts: receipts as JsonValue[], idempotent: r.ok ? r.value.idempotent : 0 },
      r.ok ? 'ok' : r.error.code,
    )
    if (r.ok)
      for (const rec of list)
        if (this.#byId.get(rec.rollout_id)?.receipt === rec)
          (this.#byId.get(rec.rollout_id) as RolloutRt).receipt = null
    return r
  }

  #redispatch(id: ExecutionIdentity): void {
    const r = this.#byId.get(id.rollout_id)
    if (r === undefined) return
    // A retired straggler restarts from scratch under a new attempt.
    r.attempt = id.attempt_index + 1
    r.status = 'pending'
    r.state = INITIAL_DRIVER_STATE
    r.waiting = null
    this.#dispatch(r)
  }
}

import { ENV_NAMES } from '../contracts/environments.ts'
import type { RunConfig } from '../contracts/scenarios.ts'
import type { TracePhase, TraceEvent } from '../contracts/trace.ts'
import type { ParticipantView } from '../contracts/views.ts'
import type { ControllerTask, ControllerTestOptions, SteppedDirectory } from '../controller/Controller.ts'
import type { Fleet } from '../controller/Fleet.ts'
import { simulatedFleet } from './simulatedFleet.ts'
import { Controller } from '../controller/Controller.ts'
import type { CheckpointDirectory } from '../directory/CheckpointDirectory.ts'
import { DirectoryWriteError } from '../directory/CheckpointDirectory.ts'
import type { EnvName } from '../contracts/environments.ts'
import type { WorkplaceExample } from '../environments/workplace/WorkplaceSession.ts'
import type { JsonValue } from '../json.ts'
import { canonicalJson } from '../json.ts'
import type { Digest } from '../ports.ts'
import type { CompletionReceipt } from '../protocol/AgentParticipant.ts'
import type { AgentBoundaryRecord } from '../records/AgentBoundaryRecord.ts'
import type { ContinuationRoot } from '../records/ContinuationRoot.ts'
import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import { executionKey } from '../records/ExecutionIdentity.ts'
import { GenerationWorker, TokenStore } from '../protocol/TokenStore.ts'
import { PyRandom } from '../rng/PyRandom.ts'
import type { Result } from '../result.ts'
import type { CutoverError } from '../contracts/errors.ts'
import { EventQueue } from './EventQueue.ts'
import { Recorder } from './Recorder.ts'
import type { Decision, DriverState, RolloutPlan } from './Workload.ts'
import { INITIAL_DRIVER_STATE, applyEnvResponse, applyStart, decide, planRollouts, startRequest, verifyRequest } from './Workload.ts'
import type { EnvFactory, World } from './World.ts'
import { createWorld } from './World.ts'

/** Virtual time the checkpoint starts at: most rollouts sit between turns then. */
export const CHECKPOINT_AT_MS = 70
const THINK_MIN = 15
const THINK_SPAN = 26
const MODEL_MIN = 8
const MODEL_SPAN = 13
const ENV_MIN = 1
const ENV_SPAN = 4

/** Options beyond the run config: the injected ports and test-only breakages. */
export interface SimulatorOptions {
  readonly digest: Digest
  readonly openDirectory: (checkpointId: string) => CheckpointDirectory
  readonly envs: EnvFactory
  readonly workplaceExamples: readonly WorkplaceExample[]
  /** false: run the same rollouts without any checkpoint (the equivalence baseline). */
  readonly checkpoint: boolean
  readonly test?: ControllerTestOptions
  /** Skip trace/view recording (baseline runs only need outcomes). */
  readonly record: boolean
  /** Dispatch only these rollouts (rollouts are independent: a baseline needs only the continued ones). */
  readonly only?: ReadonlySet<string>
}

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

/** The outcome of one rollout, compared for equivalence. */
export interface RolloutOutcome {
  readonly rollout_id: string
  readonly attempt_index: number
  readonly reward: number
  readonly outputs: JsonValue
  readonly env_outputs: JsonValue
  /** The environment state after the rollout's last mutation. */
  readonly finalState: () => JsonValue
}

/** A checkpoint directory the run produced. */
export interface CheckpointRecord {
  readonly checkpoint_id: string
  readonly location: string
  damaged: boolean
}

/**
 * The discrete-event engine: a virtual clock, an agenda, per-rollout seeded randomness, the
 * participants of the live world and the controller. Every message is a trace event.
 */
export class Simulator {
  readonly config: RunConfig
  readonly recorder = new Recorder()
  readonly outcomes = new Map<string, RolloutOutcome>()
  readonly checkpoints: CheckpointRecord[] = []
  /** Rollouts restored from a boundary (continued under N+1). */
  readonly continued = new Set<string>()
  /** Events not yet handed to the generator's consumer. */
  readonly pending: TraceEvent[] = []
  readonly #opts: SimulatorOptions
  readonly #queue = new EventQueue()
  /** Work that runs one step per agenda item, at the current time, before the queue (in order). */
  readonly #tasks: ControllerTask[] = []
  readonly #tokenStore = new TokenStore()
  readonly #gen = new GenerationWorker(this.#tokenStore)
  readonly #rollouts: RolloutRt[]
  readonly #byId = new Map<string, RolloutRt>()
  readonly #controller: Controller
  readonly #dirs = new Map<string, CheckpointDirectory>()
  #world: World
  #fleet: Fleet
  /** The world behind each fleet the controller was handed (a spawned one is adopted by identity). */
  readonly #worlds = new WeakMap<Fleet, World>()
  #now = 0
  #phase: TracePhase = 'run'
  #frozen = false
  #writes = 0
  #crashFired = false
  #worldCount = 0
  readonly #workers: number
  readonly #missing = new Set<number>()
  readonly #unackedFault = new Set<string>()
  /** The first checkpoint waits for an `unacked_result` rollout to complete. */
  #checkpointDeferred = false

  constructor(config: RunConfig, opts: SimulatorOptions) {
    this.config = config
    this.#opts = opts
    const runSeed = BigInt(config.seed)
    const plans = planRollouts(runSeed, config.rollouts)
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
    const mw = config.faults.filter((f) => f.kind === 'missing_worker').map((f) => (f.kind === 'missing_worker' ? f.worker : 0))
    this.#workers = config.scenario === 'two-worker-admission' || mw.length > 0 ? Math.max(2, ...mw.map((w) => w + 1)) : 1
    for (const w of mw) this.#missing.add(w)
    if (opts.checkpoint) for (const f of config.faults) if (f.kind === 'unacked_result') this.#unackedFault.add(this.#rolloutId(f.rollout))
    this.#world = createWorld(0, opts.digest, opts.envs, this.#workers)
    this.#fleet = this.#fleetOf(this.#world)
    this.#controller = new Controller(this.#host(), config.deadline_ms, opts.test ?? {})
  }

  get now(): number {
    return this.#now
  }
  get world(): World {
    return this.#world
  }
  get controller(): Controller {
    return this.#controller
  }
  get tokenStore(): TokenStore {
    return this.#tokenStore
  }

  #rolloutId(ref: string | number): string {
    if (typeof ref === 'number') return this.#rollouts[ref]?.plan.rollout_id ?? `r${ref}`
    return ref
  }

  /** Runs to completion, yielding each event as soon as it is recorded. */
  *run(): Generator<TraceEvent, void> {
    this.start()
    while (this.advance()) while (this.pending.length > 0) yield this.pending.shift() as TraceEvent
  }

  /** Queues every rollout's dispatch (and the checkpoint); `advance` then works the agenda. */
  start(): void {
    for (const r of this.#rollouts) {
      if (this.#opts.only !== undefined && !this.#opts.only.has(r.plan.rollout_id)) continue
      const start = (r.plan.index % 16) * 4
      this.#queue.push(start, () => this.#dispatch(r))
    }
    if (this.#opts.checkpoint) this.#queue.push(CHECKPOINT_AT_MS, () => this.#beginCheckpoint())
  }

  /**
   * Runs one agenda item (a bounded piece of work, so a caller can interleave a run that records
   * no events, like the equivalence baseline, with other work); false once the agenda is empty.
   */
  advance(): boolean {
    const task = this.#tasks[0]
    if (task !== undefined) {
      // A task's steps share its virtual time and nothing else runs between them, so the trace
      // is the one the whole task would produce as a single item.
      if (task.next().done === true) this.#tasks.shift()
    } else {
      const item = this.#queue.pop()
      if (item === undefined) return false
      this.#now = Math.max(this.#now, item.time)
      item.run()
    }
    if (this.#controller.waiting) this.#controller.poke()
    if (this.#checkpointDeferred && !this.#awaitingUnacked()) {
      this.#checkpointDeferred = false
      this.#queue.push(this.#now + 1, () => this.#beginCheckpoint())
    }
    return true
  }

  #beginCheckpoint(): void {
    if (this.#controller.attempts === 0 && this.#awaitingUnacked()) {
      // unacked_result: the fault's rollout must hold a completed, unacknowledged result at
      // prepare, whatever the seed; while it still runs, the first checkpoint waits for it.
      this.#checkpointDeferred = true
      return
    }
    this.#checkpointDeferred = false
    this.#controller.begin(`ck-${this.#controller.attempts + 1}`)
  }

  /** True while an `unacked_result` rollout has not finished yet. */
  #awaitingUnacked(): boolean {
    for (const id of this.#unackedFault) {
      const r = this.#byId.get(id)
      if (r !== undefined && (r.status === 'pending' || r.status === 'running' || r.status === 'parked')) return true
    }
    return false
  }

  // ---- events and views ----

  emit(phase: TracePhase, from: string, to: string, type: string, payload: { [key: string]: JsonValue }, outcome: string): void {
    if (!this.#opts.record) return
    const event: TraceEvent = { step: this.recorder.events.length + 1, time_ms: this.#now, phase, from, to, type, payload, outcome }
    this.recorder.events.push(event)
    this.pending.push(event)
    this.#refreshParticipant(from)
    this.#refreshParticipant(to)
    if (from !== 'controller' && to !== 'controller') this.#refreshParticipant('controller')
  }

  #rolloutPhase(): TracePhase {
    return this.#phase === 'retire' || this.#phase === 'commit' ? 'prepare' : this.#phase
  }

  /** Recomputes one participant's card (only the participants an event touches change). */
  #refreshParticipant(id: string): void {
    const view = this.participantView(id)
    if (view !== null) this.recorder.participant(id, view)
  }

  participantView(id: string): ParticipantView | null {
    const w = this.#world
    const cid = this.#controller.checkpointId === '' ? null : this.#controller.checkpointId
    if (id === 'controller')
      return { id, kind: 'controller', phase: this.#controller.stage, admission: this.#frozen ? 'frozen' : 'open', inflight: 0, tombstones: [], manifest_digest: null, checkpoint_id: cid }
    if (id === 'policy_model') {
      const f = w.model.fence.snapshot()
      return { id, kind: 'policy_model', phase: f.phase, admission: w.model.admission, inflight: w.model.inflightTotal, tombstones: w.model.tombstones(), manifest_digest: w.model.manifestDigest, checkpoint_id: f.active_checkpoint_id }
    }
    if (id === 'agent') {
      const f = w.agent.fence.snapshot()
      const running = w.agent.runningCount()
      return { id, kind: 'agent', phase: f.phase, admission: w.agent.accepting ? 'accepting' : 'paused', inflight: running, tombstones: w.agent.tombstones(), manifest_digest: w.agent.manifestDigest, checkpoint_id: f.active_checkpoint_id }
    }
    if (id.startsWith('resources_')) {
      const env = id.slice('resources_'.length) as EnvName
      const r = w.resources[env]
      if (r === undefined) return null
      const f = r.fence.snapshot()
      return { id, kind: 'resources', phase: f.phase, admission: r.accepting ? 'accepting' : 'paused', inflight: 0, tombstones: r.tombstones(), manifest_digest: r.manifestDigest, checkpoint_id: f.active_checkpoint_id }
    }
    if (id.startsWith('model_worker_')) {
      const f = w.model.fence.snapshot()
      const k = Number(id.slice('model_worker_'.length))
      return { id, kind: 'model_worker', phase: f.phase, admission: this.#missing.has(k) && w.model.admission !== 'accepting' ? 'missing' : w.model.admission, inflight: 0, tombstones: [], manifest_digest: null, checkpoint_id: f.active_checkpoint_id }
    }
    if (id === 'generation_worker' || id === 'token_store' || id === 'directory')
      return { id, kind: id, phase: 'n/a', admission: 'n/a', inflight: 0, tombstones: [], manifest_digest: null, checkpoint_id: cid }
    return null
  }

  #sessionRecord(r: RolloutRt, state: 'bound' | 'exported' | 'retired' | 'terminal' | 'uncertain' | 'restored', session: unknown, revision: number | null, sessionId: string | null): void {
    if (!this.#opts.record) return
    const key = executionKey({ rollout_id: r.plan.rollout_id, attempt_index: r.attempt })
    // The one-line summary is computed lazily when a view asks (codec.describe can be costly).
    const summary = session === undefined ? (state === 'terminal' ? 'closed' : '—') : ''
    this.recorder.session(key, r.plan.env, {
      row: { key, rollout_id: r.plan.rollout_id, attempt: r.attempt, environment: r.plan.env, state, revision, session_id: sessionId, summary },
      session,
    })
  }

  // ---- rollouts ----

  #id(r: RolloutRt): ExecutionIdentity {
    return { rollout_id: r.plan.rollout_id, attempt_index: r.attempt }
  }
  #ids(r: RolloutRt): { [key: string]: JsonValue } {
    return { rollout_id: r.plan.rollout_id, attempt_index: r.attempt }
  }
  #draw(r: RolloutRt, min: number, span: number): number {
    return min + (r.rng ??= PyRandom.fromSeed(r.plan.seed + 7n)).randbelow(span)
  }
  #alive(r: RolloutRt, world: number, attempt: number): boolean {
    return r.world === world && r.attempt === attempt && this.#world.generation === world && r.status !== 'retired'
  }
  #later(r: RolloutRt, delay: number, run: () => void): void {
    const world = r.world
    const attempt = r.attempt
    this.#queue.push(this.#now + delay, () => {
      if (this.#alive(r, world, attempt)) run()
    })
  }

  #dispatch(r: RolloutRt): void {
    if (this.#frozen) {
      r.waiting = () => this.#dispatch(r)
      return
    }
    const begin = this.#world.agent.begin(this.#id(r))
    this.emit(this.#rolloutPhase(), 'controller', 'agent', 'run.dispatch', { ...this.#ids(r), environment: r.plan.env, continued: begin.ok && begin.value.execution.continuation !== null, generation: begin.ok ? begin.value.execution.generation : null }, begin.ok ? 'ok' : begin.error.code)
    if (!begin.ok) return
    r.status = 'running'
    r.world = this.#world.generation
    r.generation = begin.value.execution.generation
    this.recorder.attempt(r.plan.rollout_id, r.attempt, r.plan.env, 'running')
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
    const req = startRequest(r.plan)
    const res = this.#world.resources[r.plan.env]
    const resp = res.handleRequest({ path: req.path, method: 'POST', body: req.body, identity: this.#id(r) })
    this.emit(this.#rolloutPhase(), 'agent', `resources_${r.plan.env}`, 'env.start', { ...this.#ids(r), path: req.path, session_id: resp.sessionId, revision: resp.revision, status: resp.status }, resp.code ?? 'ok')
    if (resp.code !== null || resp.status >= 400) return
    r.state = applyStart(r.plan, r.state, resp.body)
    r.revision = resp.revision ?? 0
    r.lastSession = resp.session
    this.#sessionRecord(r, 'bound', resp.session, r.revision, resp.sessionId)
    this.#boundary(r)
  }

  #boundary(r: RolloutRt): void {
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
      agent_state: { driver: r.state as unknown as JsonValue, environment: r.plan.env, task: r.plan.task, seed: r.plan.seed.toString() },
      created_at: this.#now,
    }
    const c = this.#world.agent.commitBoundary(this.#id(r), r.generation, record)
    const parked = c.ok && c.value.state === 'parked'
    this.emit(this.#rolloutPhase(), 'agent', 'agent', 'agent.boundary', { ...this.#ids(r), boundary_index: r.boundaryIndex, last_committed_model_call_id: r.lastCall, resource_state_revisions: { [r.plan.env]: r.revision }, parked }, c.ok ? 'ok' : c.error.code)
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
    // Leaving the boundary (for a model call or the final verify) is refused while parked.
    const leave = this.#world.agent.leaveBoundary(this.#id(r), r.generation)
    if (!leave.ok) {
      if (leave.error.code === 'checkpoint_parked') {
        r.status = 'parked'
        r.waiting = () => this.#later(r, this.#draw(r, THINK_MIN, THINK_SPAN), () => this.#turn(r))
      }
      return
    }
    const decision = decide(r.plan, r.state, this.#opts.workplaceExamples)
    if (decision === null) return this.#finish(r)
    r.busy = true
    const model = this.#world.model
    const admit = model.admit(this.#id(r), r.plan.index % model.workerCount)
    this.emit(
      this.#rolloutPhase(),
      'agent',
      'policy_model',
      'model.request',
      { ...this.#ids(r), model_call_id: admit.ok ? admit.value.model_call_id : null, parent_call_id: admit.ok ? admit.value.parent_call_id : null, relay: admit.ok ? admit.value.relay : false, turn: r.state.turn },
      admit.ok ? 'ok' : admit.error.code,
    )
    if (!admit.ok) {
      if (admit.error.code === 'checkpoint_parked') {
        this.#world.agent.park(this.#id(r), r.generation)
        r.status = 'parked'
        r.waiting = () => this.#later(r, 1, () => this.#turn(r))
      }
      return
    }
    const a = admit.value
    this.recorder.call(r.plan.rollout_id, r.attempt, { model_call_id: a.model_call_id, parent_call_id: a.parent_call_id, relay: a.relay, step: this.recorder.step })
    let latency = this.#draw(r, MODEL_MIN, MODEL_SPAN)
    for (const f of this.config.faults) if (f.kind === 'straggler' && this.#opts.checkpoint && r.attempt === 0 && this.#rolloutId(f.rollout) === r.plan.rollout_id) latency += f.extra_ms
    const world = this.#world
    this.#later(r, latency, () => this.#generated(r, world, a.ticket, a.model_call_id, a.parent_call_id, a.relay, a.prev_len, decision))
  }

  #generated(r: RolloutRt, world: World, ticket: string, callId: string, parent: string | null, relay: boolean, prevLen: number, decision: Decision): void {
    if (!world.model.isInflight(ticket)) return // task already exited (aborted); the ticket was admitted for this attempt
    const coords = this.#gen.stage(callId, prevLen, decision.text)
    const phase = this.#rolloutPhase()
    this.emit(phase, 'policy_model', 'generation_worker', 'generation.stage', { ...this.#ids(r), model_call_id: callId }, 'ok')
    this.emit(phase, 'generation_worker', 'token_store', 'token.stage', { ...this.#ids(r), model_call_id: callId, staging_key: coords.staging_key, delta_len: coords.delta_len }, 'ok')
    this.emit(phase, 'generation_worker', 'policy_model', 'generation.coordinates', { ...this.#ids(r), model_call_id: callId, ...coords }, 'ok')
    const row = world.model.complete(ticket, coords, this.#now)
    this.emit(phase, 'policy_model', 'agent', 'model.response', { ...this.#ids(r), model_call_id: callId, parent_call_id: parent, relay, text: decision.text }, row.ok ? 'ok' : row.error.code)
    if (!row.ok) return
    r.lastCall = callId
    this.#later(r, this.#draw(r, ENV_MIN, ENV_SPAN), () => this.#envStep(r, decision))
  }

  #envStep(r: RolloutRt, decision: Decision): void {
    const res = this.#world.resources[r.plan.env]
    const requestId = `${executionKey(this.#id(r))}.t${r.state.turn}`
    const resp = res.handleRequest({ path: decision.route, method: 'POST', body: decision.body, identity: this.#id(r), requestId, expectedRevision: r.revision })
    this.emit(this.#rolloutPhase(), 'agent', `resources_${r.plan.env}`, 'env.request', { ...this.#ids(r), path: decision.route, request_id: requestId, revision_before: resp.revisionBefore, revision: resp.revision, status: resp.status, replayed: resp.replayed, success: resp.code === null && resp.status < 400 }, resp.code ?? 'ok')
    if (resp.code !== null) return
    r.revision = resp.revision ?? r.revision
    if (resp.session !== undefined) r.lastSession = resp.session
    this.#sessionRecord(r, resp.closed ? 'terminal' : 'bound', resp.closed ? r.lastSession : resp.session, r.revision, resp.sessionId)
    r.state = applyEnvResponse(r.plan, r.state, decision, resp.status, resp.body, resp.closed)
    // A terminal step ends the /run loop at once (Gymnasium agent): no boundary to park on.
    if (r.state.done) return this.#finish(r)
    this.#boundary(r)
  }

  #finish(r: RolloutRt): void {
    const verify = verifyRequest(r.plan, r.state, this.#opts.workplaceExamples)
    let reward = r.state.reward
    if (verify !== null) {
      const res = this.#world.resources[r.plan.env]
      // Terminal and never retried here, so no request id: its receipt would copy the whole echoed row.
      const resp = res.handleRequest({ path: verify.path, method: 'POST', body: verify.body, identity: this.#id(r) })
      const b = resp.body !== null && typeof resp.body === 'object' && !Array.isArray(resp.body) ? resp.body : {}
      reward = typeof b['reward'] === 'number' ? b['reward'] : 0
      this.emit(this.#rolloutPhase(), 'agent', `resources_${r.plan.env}`, 'env.verify', { ...this.#ids(r), path: verify.path, reward, revision_before: resp.revisionBefore, revision: resp.revision, success: resp.code === null && resp.status < 400 }, resp.code ?? 'ok')
      if (resp.code === null) this.#sessionRecord(r, 'terminal', r.lastSession, resp.revision, resp.sessionId)
    }
    const codec = this.#world.resources[r.plan.env].env.codec
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
        const e = codec.exportState(last)
        return e.ok ? e.value : null
      },
    }
    this.outcomes.set(r.plan.rollout_id, outcome)
    const result: JsonValue = { reward, output: [...r.state.outputs] }
    const fin = this.#world.agent.finish(this.#id(r), r.generation, 'completed', result)
    r.status = 'completed'
    r.receipt = fin.ok ? fin.value : null
    this.recorder.attempt(r.plan.rollout_id, r.attempt, r.plan.env, 'completed')
    this.emit(this.#rolloutPhase(), 'agent', 'controller', 'run.complete', { ...this.#ids(r), reward, receipt: r.receipt as unknown as JsonValue }, fin.ok ? 'ok' : fin.error.code)
    if (r.receipt === null) return
    if (this.#unackedFault.has(r.plan.rollout_id) && this.#controller.stage === 'idle') return // held back: still unacknowledged at prepare
    this.#acknowledge([r.receipt as unknown as JsonValue], this.#rolloutPhase())
  }

  #acknowledge(receipts: readonly JsonValue[], phase: TracePhase): Result<unknown, CutoverError> {
    const list = receipts as unknown as CompletionReceipt[]
    const r = this.#world.agent.acknowledge(list)
    this.emit(phase, 'controller', 'agent', 'agent.acknowledge', { receipts: receipts as JsonValue[], idempotent: r.ok ? r.value.idempotent : 0 }, r.ok ? 'ok' : r.error.code)
    if (r.ok) for (const rec of list) if (this.#byId.get(rec.rollout_id)?.receipt === rec) (this.#byId.get(rec.rollout_id) as RolloutRt).receipt = null
    return r
  }

  // ---- the controller's host ----

  #host() {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const sim = this
    return {
      now: () => sim.#now,
      fleet: () => sim.#fleet,
      spawnFleet: () => sim.#fleetOf(createWorld(++sim.#worldCount, sim.#opts.digest, sim.#opts.envs, sim.#workers)),
      adoptFleet: (f: Fleet) => sim.#adopt(f),
      emit: (phase: TracePhase, from: string, to: string, type: string, payload: { [key: string]: JsonValue }, outcome: string) => {
        sim.#phase = phase
        sim.emit(phase, from, to, type, payload, outcome)
        sim.#afterControl(type, outcome)
      },
      schedule: (delay: number, run: () => void) => sim.#queue.push(sim.#now + delay, run),
      runTask: (task: ControllerTask) => {
        sim.#tasks.push(task)
      },
      openDirectory: (cid: string, writer: () => string) => sim.#directory(cid, writer),
      digest: sim.#opts.digest,
      published: (cid: string) => {
        const damaged = sim.#damage(cid).length > 0
        const dir = sim.#dirs.get(cid)
        if (dir !== undefined) sim.checkpoints.push({ checkpoint_id: cid, location: dir.location, damaged })
      },
      freezeDispatch: () => {
        sim.#frozen = true
      },
      afterResume: (restored: readonly AgentBoundaryRecord[] | null, retired: readonly ExecutionIdentity[]) => sim.#afterResume(restored, retired),
      unacknowledged: () => sim.#rollouts.filter((r) => r.status === 'completed' && r.receipt !== null).map((r) => r.receipt as unknown as JsonValue),
      acknowledge: (receipts: readonly JsonValue[], _label: string) => sim.#acknowledgeAtPrepare(receipts),
      liveMembership: () =>
        sim.#rollouts
          .filter((r) => r.status === 'parked' || r.status === 'running' || r.status === 'completed')
          .map((r) => ({ rollout_id: r.plan.rollout_id, attempt_index: r.attempt, state: r.status === 'completed' ? ('terminal' as const) : ('running' as const) })),
      stagingKeys: (roots: readonly ContinuationRoot[]) => {
        const named = new Set(roots.map((x) => x.capture_key))
        const keys: string[] = []
        for (const row of sim.#world.model.ledgerRows()) {
          const ck = row.attempt_index === 0 ? row.rollout_id : `${row.rollout_id}-a${row.attempt_index}`
          if (named.has(ck)) keys.push(row.staging_key)
        }
        return keys.sort()
      },
      tokenSnapshot: (keys: readonly string[]) => sim.#tokenStore.snapshot(keys, sim.#opts.digest),
      log: (phase: TracePhase, type: string, payload: { [key: string]: JsonValue }) => {
        sim.#phase = phase
        sim.emit(phase, 'controller', 'controller', type, payload, 'ok')
        // missing_worker: the dropped worker's replacement tries to rejoin as soon as the checkpoint aborts.
        if (type === 'controller.abort') sim.#rejoin(phase)
        if (type === 'rollout.retired') {
          const r = sim.#byId.get(String(payload['rollout_id']))
          if (r !== undefined) {
            r.status = 'retired'
            sim.recorder.attempt(r.plan.rollout_id, r.attempt, r.plan.env, 'retired')
          }
        }
      },
    }
  }

  #afterControl(type: string, outcome: string): void {
    if (outcome !== 'ok') return
    if (type === 'resources.prepare' && this.#opts.record) {
      // Capture the prepare snapshot of every exported session for the Sessions/Tables diff.
      for (const env of ENV_NAMES) {
        for (const snap of this.#world.resources[env].preparedSnapshots()) {
          const key = executionKey(snap)
          if (!this.recorder.prepared.has(key)) this.recorder.prepared.set(key, { step: this.recorder.step, state: snap.state })
          const r = this.#byId.get(snap.rollout_id)
          if (r !== undefined && r.attempt === snap.attempt_index) this.#sessionRecord(r, 'exported', this.#world.resources[env].sessionOf(snap), snap.state_revision, this.#world.resources[env].sessionIdOf(snap))
        }
      }
    }
    if (type === 'resources.retire' && this.#opts.record) {
      for (const r of this.#rollouts) if (r.status === 'retired' && this.recorder.sessions.has(executionKey(this.#id(r)))) this.#sessionRecord(r, 'retired', undefined, null, null)
    }
  }

  #acknowledgeAtPrepare(receipts: readonly JsonValue[]): Result<unknown, CutoverError> {
    const list = receipts as unknown as CompletionReceipt[]
    if (this.#unackedFault.size > 0) {
      // Receipt replay: a batch with one mismatching receipt releases nothing; then the exact
      // receipts are acknowledged; then the same acknowledgement is replayed (idempotent).
      const first = list[0]
      if (first !== undefined) this.#acknowledge([...receipts, { ...first, result_digest: '0'.repeat(64) } as unknown as JsonValue], 'prepare')
      const r = this.#acknowledge(receipts, 'prepare')
      this.#acknowledge(receipts, 'prepare')
      this.#unackedFault.clear()
      return r
    }
    return this.#acknowledge(receipts, 'prepare')
  }

  #fleetOf(world: World): Fleet {
    const fleet = simulatedFleet(world, {
      isMissingWorker: (k) => this.#missing.has(k),
      later: (delay, run) => this.#queue.push(this.#now + delay, run),
      taskExited: (id, ticket) => {
        this.#phase = 'retire'
        this.emit('retire', 'generation_worker', 'policy_model', 'model.task_exit', { rollout_id: id.rollout_id, attempt_index: id.attempt_index, ticket }, 'ok')
      },
    })
    this.#worlds.set(fleet, world)
    return fleet
  }

  #adopt(f: Fleet): void {
    const w = this.#worlds.get(f)
    if (w === undefined) throw new Error('adoptFleet: not a fleet this simulator spawned')
    this.#world = w
    this.#fleet = f
    // Every execution of the old world is gone with its process; parked ones continue under N+1.
    for (const r of this.#rollouts) if (r.status === 'parked' || r.status === 'running') r.waiting = null
  }

  #afterResume(restored: readonly AgentBoundaryRecord[] | null, retired: readonly ExecutionIdentity[]): void {
    this.#frozen = false
    const cont = this.#phase === 'abort' ? 'abort' : 'continue'
    this.#phase = cont
    if (restored === null) {
      // Same processes: release parked executions and queued dispatches.
      for (const r of this.#rollouts) {
        const w = r.waiting
        if (w !== null && (r.status === 'parked' || r.status === 'pending')) {
          r.waiting = null
          if (r.status === 'parked') r.status = 'running'
          w()
        }
      }
      for (const id of retired) this.#redispatch(id)
      if (this.#controller.canRetry) this.#queue.push(this.#now + 20, () => this.#beginCheckpoint())
      return
    }
    this.#phase = 'continue'
    this.#tasks.push(this.#continueRestored(restored, retired))
  }

  /** Dispatches every restored continuation (and the rest), one rollout per step. */
  *#continueRestored(restored: readonly AgentBoundaryRecord[], retired: readonly ExecutionIdentity[]): Generator<void, void> {
    const byRollout = new Map(restored.map((rec) => [rec.rollout_id, rec]))
    for (const r of this.#rollouts) {
      const rec = byRollout.get(r.plan.rollout_id)
      if (rec !== undefined) {
        // The checkpoint recorded attempt N; the replacement continues as N+1.
        this.recorder.attempt(r.plan.rollout_id, r.attempt, r.plan.env, 'continued')
        r.attempt = rec.attempt_index + 1
        r.status = 'pending'
        r.waiting = null
        this.#sessionRecord(r, 'restored', this.#world.resources[r.plan.env].sessionOf(this.#id(r)), this.#world.resources[r.plan.env].revisionOf(this.#id(r)), `checkpoint:${r.plan.rollout_id}:a${r.attempt}`)
        const dup = this.config.faults.some((f) => f.kind === 'duplicate_claim' && this.#rolloutId(f.rollout) === r.plan.rollout_id)
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
    this.#staleRequests()
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

  /** `stale_request` faults: delayed attempt-N requests reach the new processes after restore. */
  #staleRequests(): void {
    for (const f of this.config.faults) {
      if (f.kind !== 'stale_request') continue
      const r = this.#byId.get(this.#rolloutId(f.rollout))
      if (r === undefined) continue
      const stale: ExecutionIdentity = { rollout_id: r.plan.rollout_id, attempt_index: Math.max(0, r.attempt - 1) }
      const from = `rollout_${r.plan.rollout_id}`
      const payload = { rollout_id: stale.rollout_id, attempt_index: stale.attempt_index, delayed: true }
      this.#queue.push(this.#now + 3, () => {
        if (f.participant === 'policy_model') {
          const a = this.#world.model.admit(stale)
          this.emit('continue', from, 'policy_model', 'model.request', { ...payload, model_call_id: a.ok ? a.value.model_call_id : null, parent_call_id: null, relay: false }, a.ok ? 'ok' : a.error.code)
        } else if (f.participant === 'agent') {
          const b = this.#world.agent.begin(stale)
          this.emit('continue', from, 'agent', 'run.dispatch', { ...payload, environment: r.plan.env, continued: false, generation: null }, b.ok ? 'ok' : b.error.code)
        } else {
          const resp = this.#world.resources[r.plan.env].handleRequest({ path: r.plan.env === 'blackjack' ? '/step' : '/get_counter_value', method: 'POST', body: {}, identity: stale, requestId: `${executionKey(stale)}.stale` })
          this.emit('continue', from, `resources_${r.plan.env}`, 'env.request', { ...payload, path: 'stale', request_id: `${executionKey(stale)}.stale`, revision_before: resp.revisionBefore, revision: resp.revision, status: resp.status, replayed: false, success: resp.code === null }, resp.code ?? 'ok')
        }
      })
    }
  }

  #rejoin(phase: TracePhase): void {
    if (this.#missing.size === 0) return
    for (const k of [...this.#missing].sort()) {
      // The dropped worker's replacement tries to join while the checkpoint holds admission closed.
      const early = this.#world.model.workerRegister(k)
      this.emit(phase, `model_worker_${k}`, 'policy_model', 'model.worker_register', { worker: k }, early.ok ? 'ok' : early.error.code)
      this.#queue.push(this.#now + 10, () => {
        const again = this.#world.model.workerRegister(k)
        this.emit('abort', `model_worker_${k}`, 'policy_model', 'model.worker_register', { worker: k }, again.ok ? 'ok' : again.error.code)
        if (again.ok) this.#missing.delete(k)
      })
    }
  }

  // ---- directory ----

  /**
   * Checkpoint `cid`'s directory: writes (and syncs) are staged, then performed and traced one per
   * `flushOne`, with the writer named when the write was made. The injected crash fires on write k
   * when it is made (the writer sees the throw); its trace event follows the writes staged before it.
   */
  #directory(cid: string, writer: () => string): SteppedDirectory {
    let dir = this.#dirs.get(cid)
    if (dir === undefined) {
      dir = this.#opts.openDirectory(cid)
      this.#dirs.set(cid, dir)
    }
    const d = dir
    const crash = this.config.faults.find((f) => f.kind === 'crash_after_write')
    // Participants write into D only inside a commit.
    const phase: TracePhase = 'commit'
    type Staged = { readonly kind: 'write'; readonly path: string; readonly data: Uint8Array; readonly writer: string } | { readonly kind: 'crash'; readonly path: string; readonly bytes: number; readonly writer: string } | { readonly kind: 'sync' }
    const staged: Staged[] = []
    let head = 0
    let failure: string | undefined
    /** Staged content by path, so reads see the writer's own writes before they are performed. */
    const pending = new Map<string, Uint8Array>()
    const flushOne = (): boolean => {
      const op = staged[head]
      if (op === undefined) return false
      head++
      if (head === staged.length) {
        staged.length = 0
        head = 0
      }
      if (op.kind === 'sync') d.sync()
      else if (op.kind === 'crash') this.emit(phase, op.writer, 'directory', 'directory.write', { checkpoint_id: cid, path: op.path, bytes: op.bytes, crashed: true }, 'internal_error')
      else {
        if (pending.get(op.path) === op.data) pending.delete(op.path)
        try {
          d.writeFile(op.path, op.data)
        } catch (e) {
          // The port refused the write (a real disk error): the writer is dead, its later writes never happen.
          if (!(e instanceof Error && e.name === 'DirectoryWriteError')) throw e
          failure = e.message
          staged.length = 0
          head = 0
          pending.clear()
          this.emit(phase, op.writer, 'directory', 'directory.write', { checkpoint_id: cid, path: op.path, bytes: op.data.length, crashed: true }, 'internal_error')
          return true
        }
        this.emit(phase, op.writer, 'directory', 'directory.write', { checkpoint_id: cid, path: op.path, bytes: op.data.length, crashed: false }, 'ok')
      }
      return true
    }
    const flushAll = () => {
      while (flushOne());
    }
    return {
      location: d.location,
      writeFile: (path: string, data: Uint8Array) => {
        this.#writes++
        if (crash !== undefined && crash.kind === 'crash_after_write' && !this.#crashFired && this.#writes === crash.k) {
          this.#crashFired = true
          staged.push({ kind: 'crash', path, bytes: data.length, writer: writer() })
          throw new DirectoryWriteError(path, `injected crash on write ${crash.k} (${path})`)
        }
        // The port's writers may reuse their buffer: stage the bytes as they are now.
        const copy = data.slice()
        staged.push({ kind: 'write', path, data: copy, writer: writer() })
        pending.set(path, copy)
      },
      sync: () => {
        if (staged.length > head) staged.push({ kind: 'sync' })
        else d.sync()
      },
      readFile: (path: string) => pending.get(path) ?? d.readFile(path),
      list: () => {
        // Rare (verification reads after every write is performed): perform the staged writes first.
        flushAll()
        return d.list()
      },
      flushOne,
      takeFailure: () => {
        const f = failure
        failure = undefined
        return f
      },
    }
  }

  #damage(cid: string): readonly string[] {
    const dir = this.#dirs.get(cid)
    if (dir === undefined || this.#controller.attempts > 1) return []
    dir.sync()
    const damaged: string[] = []
    for (const f of this.config.faults) {
      if (f.kind !== 'corrupt_file') continue
      const files = dir
        .list()
        .map((e) => e.path)
        .filter((p) => p.startsWith(`${f.namespace}/`) && !p.endsWith('/manifest.json') && p !== `${f.namespace}/manifest.json`)
        .sort()
      const path = files[f.index % Math.max(1, files.length)]
      if (path === undefined) continue
      const bytes = dir.readFile(path)
      if (bytes === undefined || bytes.length === 0) continue
      const copy = bytes.slice()
      const at = Math.floor(copy.length / 2)
      copy[at] = (copy[at] as number) ^ 0x01
      dir.writeFile(path, copy)
      damaged.push(path)
      this.emit('commit', 'directory', 'directory', 'fault.corrupt_file', { checkpoint_id: cid, path, offset: at }, 'ok')
    }
    // The flipped bytes must reach the disk like any other write, or a later reader never sees them.
    if (damaged.length > 0) dir.sync()
    return damaged
  }
}

/** Stable JSON of an outcome (for equivalence). */
export const outcomeKey = (o: RolloutOutcome): string => canonicalJson({ reward: o.reward, outputs: o.outputs, env_outputs: o.env_outputs, final_state: o.finalState() })

import type { RunConfig } from '../contracts/scenarios.ts'
import type {
  TraceEvent,
  TraceEventOf,
  TraceEventType,
  TraceOutcome,
  TracePayloads,
  TracePhase,
} from '../contracts/trace.ts'
import type { ParticipantView } from '../contracts/views.ts'
import type { ControllerTask } from '../controller/ControllerHost.ts'
import { Controller } from '../controller/Controller.ts'
import type { Fleet } from '../controller/Fleet.ts'
import type { CheckpointDirectory } from '../directory/CheckpointDirectory.ts'
import { TokenStore } from '../protocol/TokenStore.ts'
import type { Engine } from './Engine.ts'
import { EventQueue } from './EventQueue.ts'
import { FaultPlan } from './FaultPlan.ts'
import { controllerBug } from './controllerBug.ts'
import type { ParticipantCard } from './participantView.ts'
import { cardView, participantCard } from './participantView.ts'
import { Recorder } from './Recorder.ts'
import { RolloutDriver } from './RolloutDriver.ts'
import type { CutContinuation } from './RolloutDriver.ts'
import type { RolloutOutcome } from './RolloutOutcome.ts'
import { simulatedFleet } from './simulatedFleet.ts'
import type { SimulatorOptions } from './SimulatorOptions.ts'
import { simulatorHost } from './simulatorHost.ts'
import { planRollouts } from './Workload.ts'
import type { World } from './World.ts'
import { createWorld } from './World.ts'

/** Virtual time the checkpoint starts at: most rollouts sit between turns then. */
export const CHECKPOINT_AT_MS = 70

/** A checkpoint directory the run produced. */
export interface CheckpointRecord {
  readonly checkpoint_id: string
  readonly location: string
  damaged: boolean
}

/**
 * The discrete-event engine: a virtual clock, an agenda, controller tasks, the live world and the
 * trace. The rollouts are driven by the `RolloutDriver`, the controller talks to the world through
 * `simulatorHost` and the `simulatedFleet`, and the run's faults come from the `FaultPlan`. Every
 * message is a trace event.
 */
export class Simulator implements Engine {
  readonly config: RunConfig
  readonly options: SimulatorOptions
  readonly recorder = new Recorder()
  readonly faults: FaultPlan
  readonly tokenStore = new TokenStore()
  readonly checkpoints: CheckpointRecord[] = []
  /** Events not yet handed to the generator's consumer. */
  readonly pending: TraceEvent[] = []
  /** The phase of the latest control message. */
  phase: TracePhase = 'run'
  /** True while the controller holds dispatch closed. */
  frozen = false
  readonly #queue = new EventQueue()
  /** Work that runs one step per agenda item, at the current time, before the queue (in order). */
  readonly #tasks: ControllerTask[] = []
  readonly #driver: RolloutDriver
  readonly #controller: Controller
  readonly #dirs = new Map<string, CheckpointDirectory>()
  /**
   * The world behind each fleet the controller was handed (a spawned one is adopted by identity).
   */
  readonly #worlds = new WeakMap<Fleet, World>()
  #world: World
  #fleet: Fleet
  #worldCount = 0
  #now = 0
  /** The first checkpoint waits for an `unacked_result` rollout to complete. */
  #checkpointDeferred = false

  constructor(config: RunConfig, options: SimulatorOptions) {
    this.config = config
    this.options = options
    const plans = planRollouts(BigInt(config.seed), config.rollouts)
    this.faults = new FaultPlan(
      config,
      plans.map((p) => p.rollout_id),
      options.checkpoint,
    )
    this.#driver = new RolloutDriver(this, plans)
    this.#world = createWorld(
      0,
      options.digest,
      options.envs,
      this.faults.modelWorkers,
      config.bug,
      this.tokenStore,
    )
    this.#fleet = this.#fleetOf(this.#world)
    this.#controller = new Controller(
      simulatorHost(this, this.#driver),
      config.deadline_ms,
      options.test ?? controllerBug(config.bug),
    )
  }

  get now(): number {
    return this.#now
  }
  get world(): World {
    return this.#world
  }
  get fleet(): Fleet {
    return this.#fleet
  }
  get controller(): Controller {
    return this.#controller
  }
  get outcomes(): ReadonlyMap<string, RolloutOutcome> {
    return this.#driver.outcomes
  }
  /**
   * Generation-safe runs: each continued cut call, and whether its output equals the call never
   * interrupted.
   */
  get cutContinuations(): readonly CutContinuation[] {
    return this.#driver.cutContinuations
  }
  /** Rollouts restored from a boundary (continued under N+1). */
  get continued(): ReadonlySet<string> {
    return this.#driver.continued
  }

  /** Runs to completion, yielding each event as soon as it is recorded. */
  *run(): Generator<TraceEvent, void> {
    this.start()
    while (this.advance()) while (this.pending.length > 0) yield this.pending.shift() as TraceEvent
  }

  /** Queues every rollout's dispatch (and the checkpoint); `advance` then works the agenda. */
  start(): void {
    this.#driver.start(this.options.only)
    if (this.options.checkpoint) this.#queue.push(CHECKPOINT_AT_MS, () => this.#beginCheckpoint())
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
      const step = task.next()
      if (step.done === true) this.#tasks.shift()
      // The simulated fleet answers every control call at once: nothing is ever awaited here.
      else if (step.value !== undefined)
        throw new Error('a simulated controller task waited for a fleet answer')
    } else {
      const item = this.#queue.pop()
      if (item === undefined) return false
      this.#now = Math.max(this.#now, item.time)
      item.run()
    }
    if (this.#controller.waiting) this.#controller.poke()
    if (this.#checkpointDeferred && !this.#driver.awaitingUnacked()) {
      this.#checkpointDeferred = false
      this.#queue.push(this.#now + 1, () => this.#beginCheckpoint())
    }
    return true
  }

  // ---- the engine its modules share ----

  at(delayMs: number, run: () => void): void {
    this.#queue.push(this.#now + delayMs, run)
  }

  runTask(task: ControllerTask): void {
    this.#tasks.push(task)
  }

  scheduleCheckpoint(delayMs: number): void {
    this.at(delayMs, () => this.#beginCheckpoint())
  }

  emit<T extends TraceEventType>(
    phase: TracePhase,
    from: string,
    to: string,
    type: T,
    payload: TracePayloads[T],
    outcome: TraceOutcome,
  ): void {
    if (!this.options.record) return
    const event = {
      step: this.recorder.events.length + 1,
      time_ms: this.#now,
      phase,
      from,
      to,
      type,
      payload,
      outcome,
    } as TraceEventOf<T> as TraceEvent
    this.recorder.events.push(event)
    this.recorder.cutEvent(event)
    this.pending.push(event)
    this.#refreshParticipant(from)
    this.#refreshParticipant(to)
    if (from !== 'controller' && to !== 'controller') this.#refreshParticipant('controller')
  }

  spawnFleet(): Fleet {
    return this.#fleetOf(
      createWorld(
        ++this.#worldCount,
        this.options.digest,
        this.options.envs,
        this.faults.modelWorkers,
        this.config.bug,
        this.tokenStore,
      ),
    )
  }

  adoptFleet(fleet: Fleet): void {
    const world = this.#worlds.get(fleet)
    if (world === undefined) throw new Error('adoptFleet: not a fleet this simulator spawned')
    this.#world = world
    this.#fleet = fleet
  }

  directory(checkpointId: string): CheckpointDirectory {
    let dir = this.#dirs.get(checkpointId)
    if (dir === undefined) {
      dir = this.options.openDirectory(checkpointId)
      this.#dirs.set(checkpointId, dir)
    }
    return dir
  }

  published(checkpointId: string, damaged: boolean): void {
    const dir = this.#dirs.get(checkpointId)
    if (dir !== undefined)
      this.checkpoints.push({ checkpoint_id: checkpointId, location: dir.location, damaged })
  }

  /** One participant's card as of now; null for unknown ids. */
  participantView(id: string): ParticipantView | null {
    const card = this.#participantCard(id)
    return card === null ? null : cardView(card)
  }

  #participantCard(id: string): ParticipantCard | null {
    return participantCard(id, {
      world: this.#world,
      controllerStage: this.#controller.stage,
      checkpointId: this.#controller.checkpointId,
      dispatchFrozen: this.frozen,
      isMissingWorker: this.#isMissingWorker,
    })
  }

  // One function for every card (up to three per event): a closure per call was a new function
  // (and, under tsx's keep-names transform, a defineProperty) each time: 1.7 % of a 1,000-rollout
  // run.
  readonly #isMissingWorker = (k: number): boolean => this.faults.isMissingWorker(k)

  // ---- inside ----

  #beginCheckpoint(): void {
    if (this.#controller.attempts === 0 && this.#driver.awaitingUnacked()) {
      // unacked_result: the fault's rollout must hold a completed, unacknowledged result at
      // prepare, whatever the seed; while it still runs, the first checkpoint waits for it.
      this.#checkpointDeferred = true
      return
    }
    this.#checkpointDeferred = false
    this.#controller.begin(`ck-${this.#controller.attempts + 1}`)
  }

  /** Recomputes one participant's card (only the participants an event touches change). */
  #refreshParticipant(id: string): void {
    const card = this.#participantCard(id)
    if (card !== null) this.recorder.participant(id, card)
  }

  #fleetOf(world: World): Fleet {
    const fleet = simulatedFleet(world, {
      isMissingWorker: (k) => this.faults.isMissingWorker(k),
      later: (delay, run) => this.at(delay, run),
      taskExited: (id, ticket) => {
        this.phase = 'retire'
        this.emit(
          'retire',
          'generation_worker',
          'policy_model',
          'model.task_exit',
          { rollout_id: id.rollout_id, attempt_index: id.attempt_index, ticket },
          'ok',
        )
      },
    })
    this.#worlds.set(fleet, world)
    return fleet
  }
}

import type { RunConfig } from '../contracts/scenarios.ts'
import type { TraceEventType, TraceOutcome, TracePayloads, TracePhase } from '../contracts/trace.ts'
import type { Controller } from '../controller/Controller.ts'
import type { ControllerTask } from '../controller/ControllerHost.ts'
import type { Fleet } from '../controller/Fleet.ts'
import type { CheckpointDirectory } from '../directory/CheckpointDirectory.ts'
import type { TokenStore } from '../protocol/TokenStore.ts'
import type { FaultPlan } from './FaultPlan.ts'
import type { Recorder } from './Recorder.ts'
import type { SimulatorOptions } from './SimulatorOptions.ts'
import type { World } from './World.ts'

/**
 * What the simulator's modules (rollout driver, controller host) share: the virtual clock and
 * agenda, the live world, the trace, and the run-wide switches. The `Simulator` is the one engine.
 */
export interface Engine {
  readonly config: RunConfig
  readonly options: SimulatorOptions
  readonly recorder: Recorder
  readonly faults: FaultPlan
  readonly tokenStore: TokenStore
  readonly controller: Controller
  /** Virtual time, ms. */
  readonly now: number
  /** The live processes. */
  readonly world: World
  /** The live processes as the controller's fleet. */
  readonly fleet: Fleet
  /** Fresh processes (a new world), as a fleet the controller may adopt. */
  spawnFleet(): Fleet
  /** A spawned fleet becomes the live world. */
  adoptFleet(fleet: Fleet): void
  /** Checkpoint `id`'s directory (opened once per run). */
  directory(checkpointId: string): CheckpointDirectory
  /**
   * The checkpoint committed (published) into its directory; `damaged` when a fault corrupted it.
   */
  published(checkpointId: string, damaged: boolean): void
  /** The phase of the latest control message (rollout traffic is traced in the matching phase). */
  phase: TracePhase
  /** True while the controller holds dispatch closed. */
  frozen: boolean
  /** Runs `run` `delayMs` of virtual time from now. */
  at(delayMs: number, run: () => void): void
  /** Runs `task` one step per agenda item, before any other item. */
  runTask(task: ControllerTask): void
  /**
   * Records one trace event (when recording) and refreshes the cards of the participants it
   * touches.
   */
  emit<T extends TraceEventType>(
    phase: TracePhase,
    from: string,
    to: string,
    type: T,
    payload: TracePayloads[T],
    outcome: TraceOutcome,
  ): void
  /** Queues the next checkpoint attempt `delayMs` from now. */
  scheduleCheckpoint(delayMs: number): void
}

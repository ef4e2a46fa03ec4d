import type { CutoverError } from '../contracts/errors.ts'
import type { TraceEventType, TraceOutcome, TracePayloads, TracePhase } from '../contracts/trace.ts'
import type { CheckpointDirectory } from '../directory/CheckpointDirectory.ts'
import type { JsonValue } from '../json.ts'
import type { Digest } from '../ports.ts'
import type { AgentBoundaryRecord } from '../records/AgentBoundaryRecord.ts'
import type { ContinuationRoot } from '../records/ContinuationRoot.ts'
import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import type { Result } from '../result.ts'
import type { Fleet } from './Fleet.ts'
import type { TokenSegmentInput } from '../directory/publishTokenStoreManifest.ts'

/**
 * A checkpoint directory whose writes are staged and performed one at a time: a participant's
 * commit runs to its end against it, then the controller performs (and traces) each staged write
 * or sync in its own step, so no single step of the host writes a whole namespace. Reads and
 * listings see staged writes (the host performs them first).
 */
export interface SteppedDirectory extends CheckpointDirectory {
  /** Performs the oldest staged write or sync; false when nothing is staged. */
  flushOne(): boolean
  /**
   * The message of a staged write the port refused when it was performed (the writer's later
   * staged writes are dropped, as a dead writer's would be); cleared by reading it.
   */
  takeFailure(): string | undefined
}

/** The events the controller logs about itself. */
export type ControllerLogType =
  | 'rollout.retired'
  | 'controller.abort'
  | 'controller.publish_refused'
  | 'controller.restore_abandoned'

/**
 * What a piece of controller work yields: `undefined` ends one bounded step; a promise is a fleet
 * answer still to come (an HTTP fleet), and the host resumes the work once it settles.
 */
export type ControllerWait = PromiseLike<unknown> | undefined

/**
 * A piece of controller work the host runs one bounded step per agenda item, before any other item.
 */
export type ControllerTask = Iterator<ControllerWait, void>

/** What the controller needs from the world around it (the simulator provides it). */
export interface ControllerHost {
  now(): number
  /** The live participant processes. */
  fleet(): Fleet
  /** Fresh participant processes (process replacement before restore). */
  spawnFleet(): Fleet
  /** The fresh processes restored: they become the live fleet. */
  adoptFleet(fleet: Fleet): void
  emit<T extends TraceEventType>(
    phase: TracePhase,
    from: string,
    to: string,
    type: T,
    payload: TracePayloads[T],
    outcome: TraceOutcome,
  ): void
  schedule(delayMs: number, run: () => void): void
  /**
   * Runs `task` one step per agenda item, at the current virtual time and before any other item
   * (tasks run in the order given), so a long piece of controller work never blocks the host's
   * consumer yet nothing interleaves with it: the trace is the one a single item would produce.
   */
  runTask(task: ControllerTask): void
  /**
   * Checkpoint `id`'s directory (writes staged, then performed and traced one per step); `writer`
   * names the participant that writes. A restore (`read`) opens it without creating it. A real
   * directory that cannot be one throws `DirectoryWriteError` with its code
   * (`checkpoint_not_found`, `checkpoint_dir_invalid`, `storage_full`).
   */
  openDirectory(
    checkpointId: string,
    writer: () => string,
    mode?: 'write' | 'read',
  ): SteppedDirectory
  /**
   * The hashing port the controller's own directory writes (aggregate, token store, marker) use.
   */
  readonly digest: Digest
  /** Called when the checkpoint committed (published). */
  published(checkpointId: string): void
  freezeDispatch(): void
  /** After resume: continue parked / restored executions and dispatch the rest. */
  afterResume(
    restored: readonly AgentBoundaryRecord[] | null,
    retired: readonly ExecutionIdentity[],
  ): void
  /** Receipts of completed, unacknowledged results (the framework flushes them before prepare). */
  unacknowledged(): readonly JsonValue[]
  acknowledge(receipts: readonly JsonValue[], label: string): Result<unknown, CutoverError>
  liveMembership(): readonly {
    rollout_id: string
    attempt_index: number
    state: 'running' | 'terminal'
  }[]
  stagingKeys(roots: readonly ContinuationRoot[]): readonly string[]
  tokenSnapshot(keys: readonly string[]): JsonValue
  /**
   * Generation-safe cuts (docs/protocol.md §11.3), when the run cuts: starts the model's cut round
   * over the generations still in flight at the prepare deadline and returns the identities it
   * froze (each reaches a durable disposition and parks; none is retired). Absent or empty: the
   * stragglers are retired (`whole-request`).
   */
  cutGenerations?(checkpointId: string): readonly ExecutionIdentity[]
  /**
   * The prefix segments of the cut round (written under `token-store/segments/` before the
   * token-store manifest).
   */
  cutSegments?(): readonly TokenSegmentInput[]
  /** The controller's own notes (`controller → controller`, always `ok`). */
  log<T extends ControllerLogType>(phase: TracePhase, type: T, payload: TracePayloads[T]): void
}

import { join } from 'node:path'
import type {
  CheckpointDirectory,
  ContinuationRoot,
  ControllerHost,
  ControllerTask,
  Digest,
  ExecutionIdentity,
  Fleet,
  JsonValue,
  AgentBoundaryRecord,
  Result,
  SteppedDirectory,
} from '@cutover/core'
import { ok } from '@cutover/core'
import type { CutoverError, TraceOutcome, TracePhase } from '@cutover/core/contracts'
import type { HttpFleet } from './HttpFleet.ts'

/**
 * One controller-side trace entry: what the controller sent and how it was answered, with
 * wall-clock time.
 */
export interface ControllerTraceEntry {
  readonly phase: TracePhase
  readonly from: string
  readonly to: string
  readonly type: string
  readonly payload: JsonValue
  readonly outcome: TraceOutcome
  readonly wall_ms: number
}

/**
 * A directory whose writes go straight to disk: nothing is ever staged (participants write their
 * own namespaces).
 */
class DirectDirectory implements SteppedDirectory {
  readonly #dir: CheckpointDirectory
  readonly location: string
  constructor(dir: CheckpointDirectory) {
    this.#dir = dir
    this.location = dir.location
  }
  writeFile(path: string, data: Uint8Array): void {
    this.#dir.writeFile(path, data)
  }
  sync(): void {
    this.#dir.sync()
  }
  readFile(path: string): Uint8Array | undefined {
    return this.#dir.readFile(path)
  }
  list(): ReturnType<CheckpointDirectory['list']> {
    return this.#dir.list()
  }
  flushOne(): boolean {
    return false
  }
  takeFailure(): string | undefined {
    return undefined
  }
}

/** What the run around the controller supplies: its dispatcher, the replacement processes. */
export interface RealTimeHostOptions {
  readonly dataDir: string
  readonly digest: Digest
  readonly fleet: HttpFleet
  readonly openDirectory: (path: string, create: boolean) => CheckpointDirectory
  /**
   * The checkpoint was published; resolves with the replacement fleet once its processes listen.
   */
  readonly published: (cid: string) => Promise<HttpFleet>
  readonly freezeDispatch: () => void
  readonly afterResume: (
    restored: readonly AgentBoundaryRecord[] | null,
    retired: readonly ExecutionIdentity[],
  ) => void
  readonly liveMembership: () => readonly {
    rollout_id: string
    attempt_index: number
    state: 'running' | 'terminal'
  }[]
}

/**
 * The `ControllerHost` of the real world: wall-clock time and timers, controller tasks run one
 * after another awaiting the HTTP fleet's promises, the checkpoint directory on disk. Completed
 * results are acknowledged by the dispatcher as they arrive (over HTTP), so none are pending at
 * prepare. Replacement processes are started when the checkpoint is published; the controller's
 * restore (scheduled after publish) waits for them.
 */
export class RealTimeHost implements ControllerHost {
  readonly digest: Digest
  readonly trace: ControllerTraceEntry[] = []
  readonly #options: RealTimeHostOptions
  #live: HttpFleet
  #replacement: Promise<HttpFleet> | null = null
  #fresh: HttpFleet | null = null
  readonly #tasks: ControllerTask[] = []
  #pumping = false
  #idle: Promise<void> = Promise.resolve()
  #failure: unknown = null

  constructor(options: RealTimeHostOptions) {
    this.#options = options
    this.digest = options.digest
    this.#live = options.fleet
  }

  /** True while controller work is queued or running. */
  get busy(): boolean {
    return this.#pumping
  }
  /** An exception thrown inside controller work (a bug, not a protocol refusal). */
  get failure(): unknown {
    return this.#failure
  }
  get liveFleet(): HttpFleet {
    return this.#live
  }
  /** Resolves once the queued controller work has run. */
  settled(): Promise<void> {
    return this.#idle
  }

  now(): number {
    return Date.now()
  }
  fleet(): Fleet {
    return this.#live
  }
  /**
   * The fleet a restore asked on its own restores into (`cutover checkpoint restore`: the listed
   * participants).
   */
  restoreInto(fleet: HttpFleet): void {
    this.#fresh = fleet
  }
  spawnFleet(): Fleet {
    if (this.#fresh === null) throw new Error('restore before the replacement processes started')
    return this.#fresh
  }
  adoptFleet(fleet: Fleet): void {
    this.#live = fleet as HttpFleet
  }
  emit(
    phase: TracePhase,
    from: string,
    to: string,
    type: string,
    payload: unknown,
    outcome: TraceOutcome,
  ): void {
    this.trace.push({
      phase,
      from,
      to,
      type,
      payload: JSON.parse(JSON.stringify(payload ?? null)) as JsonValue,
      outcome,
      wall_ms: Date.now(),
    })
  }
  log(phase: TracePhase, type: string, payload: unknown): void {
    this.emit(phase, 'controller', 'controller', type, payload, 'ok')
  }
  schedule(delayMs: number, run: () => void): void {
    setTimeout(() => {
      const gate = this.#replacement
      if (gate === null) return run()
      gate.then(
        (fresh) => {
          this.#fresh = fresh
          run()
        },
        (error: unknown) => (this.#failure = error),
      )
    }, delayMs)
  }
  runTask(task: ControllerTask): void {
    this.#tasks.push(task)
    if (this.#pumping) return
    this.#pumping = true
    this.#idle = this.#pump()
  }
  async #pump(): Promise<void> {
    try {
      while (this.#tasks.length > 0) {
        const task = this.#tasks[0] as ControllerTask
        const step = task.next()
        if (step.done === true) this.#tasks.shift()
        else if (step.value !== undefined) await step.value
      }
    } catch (error) {
      this.#failure = error
      this.#tasks.length = 0
    } finally {
      this.#pumping = false
    }
  }
  openDirectory(
    checkpointId: string,
    _writer?: () => string,
    mode?: 'write' | 'read',
  ): SteppedDirectory {
    return new DirectDirectory(
      this.#options.openDirectory(join(this.#options.dataDir, checkpointId), mode !== 'read'),
    )
  }
  published(checkpointId: string): void {
    this.#replacement = this.#options.published(checkpointId)
  }
  freezeDispatch(): void {
    this.#options.freezeDispatch()
  }
  afterResume(
    restored: readonly AgentBoundaryRecord[] | null,
    retired: readonly ExecutionIdentity[],
  ): void {
    this.#options.afterResume(restored, retired)
  }
  unacknowledged(): readonly JsonValue[] {
    return []
  }
  acknowledge(): Result<unknown, CutoverError> {
    return ok(undefined)
  }
  liveMembership(): readonly {
    rollout_id: string
    attempt_index: number
    state: 'running' | 'terminal'
  }[] {
    return this.#options.liveMembership()
  }
  stagingKeys(roots: readonly ContinuationRoot[]): readonly string[] {
    void roots
    return this.#live.tokenStore().keys
  }
  tokenSnapshot(): JsonValue {
    return this.#live.tokenStore().snapshot
  }
}

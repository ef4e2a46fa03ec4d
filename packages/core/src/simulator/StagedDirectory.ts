import type { SteppedDirectory } from '../controller/ControllerHost.ts'
import type { CheckpointDirectory, DirectoryEntry } from '../directory/CheckpointDirectory.ts'
import { DirectoryWriteError } from '../directory/CheckpointDirectory.ts'

type Staged =
  | {
      readonly kind: 'write'
      readonly path: string
      readonly data: Uint8Array
      readonly writer: string
    }
  | {
      readonly kind: 'crash'
      readonly path: string
      readonly bytes: number
      readonly writer: string
    }
  | { readonly kind: 'sync' }

/** What a staged directory reports and asks as it performs writes. */
export interface StagedDirectoryHooks {
  /** Names the participant writing now. */
  writer(): string
  /** Counts one write; true when the injected crash kills this one (`crash_after_write`). */
  crashesOnWrite(): boolean
  /** The write number the crash fires on (for its message). */
  readonly crashWrite: number | undefined
  /** Traces one performed (or crashed) write as `directory.write`. */
  traceWrite(
    writer: string,
    payload: { path: string; bytes: number; crashed: boolean },
    outcome: 'ok' | 'internal_error',
  ): void
}

/**
 * Checkpoint directory `D` as the controller's `SteppedDirectory`: writes (and syncs) are staged,
 * then performed and traced one per `flushOne`, with the writer named when the write was made. The
 * injected crash fires on write k when it is made (the writer sees the throw); its trace event
 * follows the writes staged before it. Reads see the writer's own staged writes.
 */
export class StagedDirectory implements SteppedDirectory {
  readonly #dir: CheckpointDirectory
  readonly #hooks: StagedDirectoryHooks
  readonly #staged: Staged[] = []
  #head = 0
  #failure: string | undefined
  /** Staged content by path, so reads see the writer's own writes before they are performed. */
  readonly #pending = new Map<string, Uint8Array>()

  constructor(dir: CheckpointDirectory, hooks: StagedDirectoryHooks) {
    this.#dir = dir
    this.#hooks = hooks
  }

  get location(): string {
    return this.#dir.location
  }

  flushOne(): boolean {
    const op = this.#staged[this.#head]
    if (op === undefined) return false
    this.#head++
    if (this.#head === this.#staged.length) {
      this.#staged.length = 0
      this.#head = 0
    }
    if (op.kind === 'sync') this.#dir.sync()
    else if (op.kind === 'crash')
      this.#hooks.traceWrite(
        op.writer,
        { path: op.path, bytes: op.bytes, crashed: true },
        'internal_error',
      )
    else {
      if (this.#pending.get(op.path) === op.data) this.#pending.delete(op.path)
      try {
        this.#dir.writeFile(op.path, op.data)
      } catch (e) {
        // The port refused the write (a real disk error): the writer is dead, its later writes
        // never happen.
        if (!(e instanceof Error && e.name === 'DirectoryWriteError')) throw e
        this.#failure = e.message
        this.#staged.length = 0
        this.#head = 0
        this.#pending.clear()
        this.#hooks.traceWrite(
          op.writer,
          { path: op.path, bytes: op.data.length, crashed: true },
          'internal_error',
        )
        return true
      }
      this.#hooks.traceWrite(
        op.writer,
        { path: op.path, bytes: op.data.length, crashed: false },
        'ok',
      )
    }
    return true
  }

  takeFailure(): string | undefined {
    const f = this.#failure
    this.#failure = undefined
    return f
  }

  writeFile(path: string, data: Uint8Array): void {
    // The port refused a staged write: this writer is dead until the failure is taken; a stepped
    // commit's later batches are dropped as its earlier staged writes were.
    if (this.#failure !== undefined) return
    if (this.#hooks.crashesOnWrite()) {
      this.#staged.push({ kind: 'crash', path, bytes: data.length, writer: this.#hooks.writer() })
      throw new DirectoryWriteError(
        path,
        `injected crash on write ${this.#hooks.crashWrite} (${path})`,
      )
    }
    // The port's writers may reuse their buffer: stage the bytes as they are now.
    const copy = data.slice()
    this.#staged.push({ kind: 'write', path, data: copy, writer: this.#hooks.writer() })
    this.#pending.set(path, copy)
  }

  sync(): void {
    if (this.#failure !== undefined) return
    if (this.#staged.length > this.#head) this.#staged.push({ kind: 'sync' })
    else this.#dir.sync()
  }

  readFile(path: string): Uint8Array | undefined {
    return this.#pending.get(path) ?? this.#dir.readFile(path)
  }

  list(): readonly DirectoryEntry[] {
    // Rare (verification reads after every write is performed): perform the staged writes first.
    while (this.flushOne());
    return this.#dir.list()
  }
}

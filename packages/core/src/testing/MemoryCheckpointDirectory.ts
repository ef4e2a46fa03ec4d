import type { CheckpointDirectory, DirectoryEntry } from '../directory/CheckpointDirectory.ts'
import { DirectoryWriteError } from '../directory/CheckpointDirectory.ts'
import { isSafeRelativePath } from '../directory/safePath.ts'

export interface MemoryCheckpointDirectoryOptions {
  /** A readable name for messages. */
  readonly location?: string
  /**
   * Fault `crash_after_write`: the writer process dies on its k-th write (1-based), which throws
   * `DirectoryWriteError` and stores nothing; every later write throws too (the writer is dead).
   * As on the real file system, writes not yet made durable by `sync()` die with it: the directory
   * falls back to what the last `sync()` committed.
   */
  readonly failOnWrite?: number
  /**
   * With `failOnWrite`: the failure is transient — write k fails (and, as a crash, loses the writes
   * since the last `sync()`), later writes succeed again (a disk that hiccups once).
   */
  readonly transient?: boolean
  /** Initial content (e.g. a crashed directory's files, to retry over the same directory). */
  readonly files?: ReadonlyMap<string, Uint8Array>
  readonly symlinks?: ReadonlyMap<string, string>
}

/**
 * The in-memory directory port (docs/architecture.md "an in-memory implementation that can crash
 * after the k-th write"), with the real one's batched durability: a write is atomic per file and
 * seen at once by this writer, but only `sync()` makes it durable, so a crash loses the writes
 * since the last `sync()` (as `NodeCheckpointDirectory`'s never-renamed temp files are). `sync()`
 * is counted so tests can check that a commit syncs per namespace, not per file. Symlinks can be
 * planted to test that readers refuse them.
 */
export class MemoryCheckpointDirectory implements CheckpointDirectory {
  readonly location: string
  readonly #files: Map<string, Uint8Array>
  /** What survives a crash: the files as of the last `sync()`. */
  readonly #durable: Map<string, Uint8Array>
  /** Paths written since the last `sync()`. */
  readonly #pending = new Set<string>()
  readonly #symlinks: Map<string, string>
  readonly #failOnWrite: number | undefined
  readonly #transient: boolean
  #writes = 0
  #syncs = 0
  #crashed = false

  constructor(options: MemoryCheckpointDirectoryOptions = {}) {
    this.location = options.location ?? 'memory:D'
    this.#files = new Map(
      [...(options.files ?? new Map<string, Uint8Array>())].map(([p, b]) => [p, b.slice()]),
    )
    this.#durable = new Map(this.#files)
    this.#symlinks = new Map(options.symlinks ?? [])
    this.#failOnWrite = options.failOnWrite
    this.#transient = options.transient ?? false
  }

  /** Writes attempted so far (including the one that crashed). */
  get writeCount(): number {
    return this.#writes
  }

  /** `sync()` calls so far. */
  get syncCount(): number {
    return this.#syncs
  }

  /** True once the injected fault has fired. */
  get crashed(): boolean {
    return this.#crashed
  }

  writeFile(path: string, data: Uint8Array): void {
    if (!isSafeRelativePath(path))
      throw new DirectoryWriteError(path, `refusing unsafe path ${JSON.stringify(path)}`)
    this.#writes++
    if (this.#crashed || this.#writes === this.#failOnWrite) {
      if (!this.#crashed) this.#dieWithPendingWrites()
      this.#crashed = !this.#transient
      throw new DirectoryWriteError(path, `injected crash on write ${this.#writes} (${path})`)
    }
    for (const link of this.#symlinks.keys()) {
      if (path === link || path.startsWith(`${link}/`))
        throw new DirectoryWriteError(path, `refusing to write through symlink ${link}`)
    }
    this.#files.set(path, data.slice())
    this.#pending.add(path)
  }

  sync(): void {
    this.#syncs++
    for (const path of this.#pending) {
      const data = this.#files.get(path)
      if (data !== undefined) this.#durable.set(path, data)
    }
    this.#pending.clear()
  }

  /** Writes since the last `sync()` (lost if the writer crashes now). */
  get pendingCount(): number {
    return this.#pending.size
  }

  /** The crash: every write since the last `sync()` is lost; the durable files remain. */
  #dieWithPendingWrites(): void {
    for (const path of this.#pending) {
      const durable = this.#durable.get(path)
      if (durable === undefined) this.#files.delete(path)
      else this.#files.set(path, durable)
    }
    this.#pending.clear()
  }

  readFile(path: string): Uint8Array | undefined {
    const data = this.#files.get(path)
    return data === undefined ? undefined : data.slice()
  }

  list(): readonly DirectoryEntry[] {
    const entries: DirectoryEntry[] = [
      ...[...this.#files].map(([path, data]) => ({
        path,
        kind: 'file' as const,
        bytes: data.length,
      })),
      ...[...this.#symlinks].map(([path, target]) => ({
        path,
        kind: 'symlink' as const,
        bytes: target.length,
      })),
    ]
    return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  }

  /**
   * A fresh writer over the same files, without the fault: the "retry after the crash" (it sees the
   * durable files only, the crash having dropped the rest), or another reader of a live writer's D
   * (which, like a new `NodeCheckpointDirectory`, first sees the writer's pending files flushed).
   */
  reopen(options: { readonly failOnWrite?: number } = {}): MemoryCheckpointDirectory {
    if (!this.#crashed) this.sync()
    return new MemoryCheckpointDirectory({
      location: this.location,
      files: this.#files,
      symlinks: this.#symlinks,
      ...(options.failOnWrite === undefined ? {} : { failOnWrite: options.failOnWrite }),
    })
  }

  /** Fault `corrupt_file`: flips every bit of one byte of a file (index modulo its length). */
  flipByte(path: string, index = 0): void {
    const data = this.#files.get(path)
    if (data === undefined || data.length === 0) throw new Error(`no file to corrupt at ${path}`)
    const at = index % data.length
    const flipped = data.slice()
    flipped[at] = (flipped[at] as number) ^ 0xff
    this.#setOnDisk(path, flipped)
  }

  /** Test hooks change the "disk" itself: durable at once, whatever the writer has pending. */
  #setOnDisk(path: string, data: Uint8Array | undefined): void {
    this.#pending.delete(path)
    if (data === undefined) {
      this.#files.delete(path)
      this.#durable.delete(path)
    } else {
      this.#files.set(path, data)
      this.#durable.set(path, data)
    }
  }

  /** Test hook: places raw bytes at a path, bypassing the writer (an unlisted or tampered file). */
  putRaw(path: string, data: Uint8Array): void {
    this.#setOnDisk(path, data.slice())
  }

  /** Test hook: removes a file (a lost write). */
  remove(path: string): void {
    this.#setOnDisk(path, undefined)
  }

  /** Test hook: plants a symlink at `path` (readers must refuse it, `list()` reports it). */
  putSymlink(path: string, target: string): void {
    this.#setOnDisk(path, undefined)
    this.#symlinks.set(path, target)
  }
}

/**
 * The directory port: the controller-provided checkpoint directory `D` every participant writes
 * into. Core never touches a file system; the edges inject an implementation (the real one,
 * `NodeCheckpointDirectory` in core/adapters, does temp file → fdatasync → rename, and fsyncs each
 * touched folder once per `sync()`; `MemoryCheckpointDirectory` in core/testing can fail on its
 * k-th write). Writers and readers of the layout live beside this file (README.md).
 *
 * Paths are relative to D, `/`-separated, never absolute, never containing `..`.
 */
export interface CheckpointDirectory {
  /** A readable name of D for messages (an absolute path for the real one). */
  readonly location: string
  /**
   * Writes one file atomically: afterwards the file holds exactly `data`, or (on a crash) its old
   * content or nothing. Throws `DirectoryWriteError` when the injected fault fires.
   */
  writeFile(path: string, data: Uint8Array): void
  /** Makes every write so far durable (fsync each touched directory once). */
  sync(): void
  /** The file's bytes, or undefined when there is no regular file at `path`. */
  readFile(path: string): Uint8Array | undefined
  /** Every entry below D (files and symlinks), sorted, as relative paths. */
  list(): readonly DirectoryEntry[]
}

export interface DirectoryEntry {
  readonly path: string
  readonly kind: 'file' | 'symlink'
  readonly bytes: number
}

/** The injected crash of a directory write (PRODUCT.md §7, fault `crash_after_write`). */
export class DirectoryWriteError extends Error {
  readonly path: string
  constructor(path: string, message: string) {
    super(message)
    this.name = 'DirectoryWriteError'
    this.path = path
  }
}

import type { ErrorCode } from '../contracts/errors.ts'

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

/**
 * A directory write that failed: the injected crash (docs/security.md, fault `crash_after_write`),
 * or the real file system refusing it. `errorCode`, when set, is the protocol code the failure
 * keeps whoever reports it (`storage_full` for a full disk, `checkpoint_dir_invalid` for a
 * directory that cannot be one); without it the writer's own checkpoint error code applies.
 */
export class DirectoryWriteError extends Error {
  readonly path: string
  readonly errorCode: ErrorCode | undefined
  constructor(path: string, message: string, errorCode?: ErrorCode) {
    super(message)
    this.name = 'DirectoryWriteError'
    this.path = path
    this.errorCode = errorCode
  }
}

/**
 * The protocol code a thrown directory failure carries, if any. By name, not instanceof: the
 * adapters may come from another copy of the module graph.
 */
export function directoryWriteCode(error: unknown): ErrorCode | undefined {
  if (!(error instanceof Error) || error.name !== 'DirectoryWriteError') return undefined
  const code = (error as { errorCode?: unknown }).errorCode
  return typeof code === 'string' ? (code as ErrorCode) : undefined
}

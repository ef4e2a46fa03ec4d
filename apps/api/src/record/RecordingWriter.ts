import { closeSync, fdatasync, fdatasyncSync, openSync, writeSync } from 'node:fs'

/** How long appended lines may wait for their fdatasync (a power loss loses at most this much). */
export const DEFAULT_SYNC_EVERY_MS = 100

/**
 * The append-only JSON-lines file of one recording (docs/recording.md). Durability policy:
 *
 * - Each exchange is one line, written with one `write(2)` to a file opened `O_APPEND` as soon as
 *   the exchange ends (after its answer was forwarded, so the write never delays it). The kernel
 *   holds it from then on: a recorder that is killed, even with SIGKILL, loses only the exchanges
 *   still in flight, and a reader never sees a line half-written by a live recorder except at the
 *   very end of the file (which readers treat as not yet there).
 * - `fdatasync` runs off the event loop (libuv's pool), at most one at a time and at most
 *   `syncEveryMs` after a line: a power loss or kernel crash loses at most that window. Syncing
 *   every line would cost a disk flush per exchange at thousands of `/v1/responses` a second for a
 *   guarantee only a machine crash needs.
 * - `close()` (SIGINT/SIGTERM) syncs and closes: the recording is complete on disk when it returns.
 */
export interface RecordingWriter {
  readonly path: string
  /** Appends one exchange as one line. */
  append(line: object): void
  /** Lines appended so far. */
  readonly lines: number
  /** Resolves once every line appended so far is synced. */
  flush(): Promise<void>
  /** Syncs and closes (waits for a sync in flight first). */
  close(): Promise<void>
}

export function openRecordingWriter(
  path: string,
  syncEveryMs: number = DEFAULT_SYNC_EVERY_MS,
): RecordingWriter {
  const fd = openSync(path, 'a', 0o600)
  let lines = 0
  let closed = false
  let timer: NodeJS.Timeout | undefined
  let syncing: Promise<void> | undefined
  let dirty = false

  const sync = (): Promise<void> => {
    timer = undefined
    if (closed) return Promise.resolve()
    if (syncing !== undefined) return syncing.then(() => (dirty ? sync() : undefined))
    dirty = false
    syncing = new Promise<void>((resolve) =>
      fdatasync(fd, () => {
        syncing = undefined
        resolve()
      }),
    )
    return syncing
  }

  return {
    path,
    append(line) {
      if (closed) throw new Error(`recording ${path} is closed`)
      const bytes = Buffer.from(`${JSON.stringify(line)}\n`, 'utf8')
      let written = 0
      while (written < bytes.length) written += writeSync(fd, bytes, written)
      lines++
      dirty = true
      timer ??= setTimeout(() => void sync(), syncEveryMs)
    },
    get lines() {
      return lines
    },
    async flush() {
      if (timer !== undefined) clearTimeout(timer)
      await sync()
    },
    async close() {
      if (closed) return
      if (timer !== undefined) clearTimeout(timer)
      closed = true
      if (syncing !== undefined) await syncing
      fdatasyncSync(fd)
      closeSync(fd)
    },
  }
}

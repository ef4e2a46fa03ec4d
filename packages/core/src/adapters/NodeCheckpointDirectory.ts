import {
  closeSync,
  constants,
  fdatasyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
} from 'node:fs'
import type { Stats } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { dirname, join } from 'node:path'
import type { ErrorCode } from '../contracts/errors.ts'
import type { CheckpointDirectory, DirectoryEntry } from '../directory/CheckpointDirectory.ts'
import { DirectoryWriteError } from '../directory/CheckpointDirectory.ts'
import { isSafeRelativePath } from '../directory/safePath.ts'
import { fsyncFolder, writeAll } from './writeFileAtomic.ts'

/**
 * Prefix of in-flight temp files. A killed writer can leave some behind (verify reports them as
 * unlisted); the next writer into that folder removes them before its first write there, so a
 * retried commit repairs the directory.
 */
export const TEMP_PREFIX = '.cutover-tmp-'

/**
 * Temp names are unique across objects, attempts and processes: the pid, a random tag drawn once
 * per process (a recycled pid draws another) and a counter for the whole process, so a retry in the
 * same process never meets the name an earlier attempt left (O_EXCL would refuse it).
 */
const TEMP_TAG = `${process.pid}-${randomBytes(4).toString('hex')}`
let tempCounter = 0

/**
 * Fault-injection hooks (the fault campaign, `npm run faults`; never set in use): each checkpoint
 * file write holds its temp file `CUTOVER_FAULT_WRITE_PAUSE_MS` before it returns, and each read
 * from disk waits `CUTOVER_FAULT_READ_PAUSE_MS` first, so a test polling the directory or the
 * participants can SIGKILL this process at every write and during every restore.
 */
const WRITE_PAUSE_MS = pauseFromEnv('CUTOVER_FAULT_WRITE_PAUSE_MS')
const READ_PAUSE_MS = pauseFromEnv('CUTOVER_FAULT_READ_PAUSE_MS')

function pauseFromEnv(name: string): number {
  const ms = Number(process.env[name] ?? 0)
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 60_000) : 0
}

/** Blocks this thread for `ms` (the hooks above model a slow disk, so they block as one would). */
function pause(ms: number): void {
  if (ms > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

/**
 * The protocol code a file-system failure keeps whoever reports it: a full disk or quota is
 * `storage_full`; a path that cannot be a directory (a file on the way, a symlink) is
 * `checkpoint_dir_invalid`; anything else is left to the writer's own code.
 */
export function fileSystemErrorCode(error: unknown): ErrorCode | undefined {
  const code = (error as { code?: unknown } | null)?.code
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'storage_full'
  if (code === 'ENOTDIR' || code === 'EEXIST' || code === 'ELOOP' || code === 'EISDIR')
    return 'checkpoint_dir_invalid'
  return undefined
}

/** One written file not yet made durable: its bytes sit in `temp` (same folder) until `sync()`. */
interface PendingWrite {
  readonly path: string
  readonly temp: string
  readonly target: string
  readonly folder: string
  readonly data: Uint8Array
}

/**
 * Batches of at most this many files (a manifest, a marker) are made durable file by file: an
 * fdatasync or two cost less than starting `sync --file-system` (a fork of this whole process).
 */
const PER_FILE_BATCH = 2

/**
 * How `sync()` makes the batch of temp files durable; `syncfs` falls back to per-file when
 * unavailable.
 */
let durability: 'syncfs' | 'per-file' = process.platform === 'linux' ? 'syncfs' : 'per-file'

/**
 * The directory port over the real file system, with batched durability. `writeFile` writes the
 * bytes to a temp file in the target's folder (no fsync yet) and records it pending: reads and
 * `list()` of this object see pending content. `sync()` then commits the batch in the order
 * docs/protocol.md §12.5 requires, paying for durability once instead of once per file:
 *   1. every pending temp file durable in ONE step (`syncfs(2)` through coreutils
 *      `sync --file-system`, or an fdatasync per file where that is unavailable and for batches
 *      of one or two files, such as a manifest alone),
 *   2. each temp renamed over its target (atomic on POSIX),
 *   3. each folder touched since the last sync fsynced once (new folders dirty their parent too).
 * So no file ever appears under its final name before its bytes are on disk, and the writers'
 * `sync()` after the data files and again after each manifest keeps manifest-last durable.
 * Never follows a symlink: a symlinked folder on the way refuses the write or read, a symlinked
 * file reads as absent, and `list()` reports symlinks as kind `symlink` without descending.
 *
 * Reads are cheap for what the protocol reads most, its own writes read back (a namespace's
 * read-back check, the aggregate's hash of every file, restore and verify in the same process): a
 * folder found real is not lstat-ed again, a file this object made durable and nobody changed
 * since (same inode, size, mtime and ctime as right after its rename) is answered from the bytes
 * it wrote, and `list()` lstat-s an entry only when its `bytes` is asked. Every read still lstat-s
 * the file itself, so a change by anyone else is read from disk. (Ctime granularity: Linux ≥ 6.13
 * stamps a change after an lstat finely; on older kernels a same-size in-place rewrite within one
 * clock tick of the rename could go unseen by this object — fresh readers always read the disk.)
 */
export class NodeCheckpointDirectory implements CheckpointDirectory {
  readonly location: string
  readonly #root: string
  readonly #touched = new Set<string>()
  /** Folders already known to exist as real directories (not symlinks) in this process. */
  readonly #knownDirs = new Set<string>()
  /** Pending writes by relative path (a rewrite before `sync()` replaces the earlier temp). */
  readonly #pending = new Map<string, PendingWrite>()
  /** Files this object made durable, by relative path: their bytes and the lstat they had then. */
  readonly #durable = new Map<string, DurableFile>()
  /** Folders whose leftover temp files this object removed before its first write there. */
  readonly #swept = new Set<string>()
  /** A writer (`create`) sweeps; a reader never changes D. */
  readonly #writer: boolean
  #writes = 0
  #folderSyncs = 0
  #durabilitySteps = 0

  /**
   * Files written, folder fsyncs, and durability steps (one `syncfs`, or one fdatasync per file
   * on the fallback) so far.
   */
  get stats(): {
    readonly writes: number
    readonly folderSyncs: number
    readonly durabilitySteps: number
  } {
    return {
      writes: this.#writes,
      folderSyncs: this.#folderSyncs,
      durabilitySteps: this.#durabilitySteps,
    }
  }

  /**
   * `root` is D, an absolute path. A writer creates it when missing (`create`, the default); a
   * reader (`create: false`) throws when it is missing or not a directory. Writes another object
   * has not yet made durable with `sync()` are invisible here, as they would be after a crash.
   */
  constructor(root: string, options: { readonly create?: boolean } = {}) {
    this.location = root
    this.#root = root
    this.#writer = options.create ?? true
    let stat: Stats
    try {
      if (options.create ?? true) mkdirSync(root, { recursive: true })
      stat = lstatSync(root)
    } catch (e) {
      throw new DirectoryWriteError(
        root,
        `cannot open ${root}: ${(e as Error).message}`,
        fileSystemErrorCode(e) ??
          ((e as { code?: unknown }).code === 'ENOENT'
            ? 'checkpoint_not_found'
            : 'checkpoint_dir_invalid'),
      )
    }
    if (!stat.isDirectory())
      throw new DirectoryWriteError(
        root,
        `${root} is ${stat.isSymbolicLink() ? 'a symlink' : 'not a directory'}`,
        'checkpoint_dir_invalid',
      )
  }

  writeFile(path: string, data: Uint8Array): void {
    if (!isSafeRelativePath(path))
      throw new DirectoryWriteError(path, `refusing unsafe path ${JSON.stringify(path)}`)
    const relativeFolder = dirname(path) === '.' ? '' : dirname(path)
    const folder = join(this.#root, relativeFolder)
    const base = path.slice(path.lastIndexOf('/') + 1)
    const temp = join(folder, `${TEMP_PREFIX}${base}-${TEMP_TAG}-${++tempCounter}`)
    const copy = data.slice()
    let written = false
    try {
      this.#ensureFolder(relativeFolder)
      this.#sweep(relativeFolder)
      const fd = openSync(
        temp,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o644,
      )
      try {
        writeAll(fd, copy)
      } finally {
        closeSync(fd)
      }
      written = true
      pause(WRITE_PAUSE_MS)
    } catch (e) {
      if (e instanceof DirectoryWriteError) throw e
      throw new DirectoryWriteError(
        path,
        `write of ${path} failed: ${(e as Error).message}`,
        fileSystemErrorCode(e),
      )
    } finally {
      if (!written) removeQuietly(temp)
    }
    const superseded = this.#pending.get(path)
    if (superseded !== undefined) rmSync(superseded.temp, { force: true })
    this.#pending.set(path, { path, temp, target: join(this.#root, path), folder, data: copy })
    this.#writes++
  }

  sync(): void {
    const batch = [...this.#pending.values()]
    this.#pending.clear()
    try {
      if (batch.length > 0) {
        this.#makeDurable(batch)
        for (const p of batch) {
          renameSync(p.temp, p.target)
          this.#touched.add(p.folder)
        }
        for (const p of batch)
          this.#durable.set(p.path, { data: p.data, signature: fileSignature(lstatSync(p.target)) })
      }
      for (const folder of [...this.#touched].sort()) {
        fsyncFolder(folder)
        this.#folderSyncs++
      }
      this.#touched.clear()
    } catch (e) {
      // The batch is lost, as after a crash: its temp files that were not renamed go too.
      for (const p of batch) removeQuietly(p.temp)
      throw new DirectoryWriteError(
        batch[0]?.target ?? this.#root,
        `sync of ${this.#root} failed: ${(e as Error).message}`,
        fileSystemErrorCode(e),
      )
    }
  }

  /** `#sweep` where a failure to list or remove must not fail a read. */
  #sweepQuietly(folder: string): void {
    try {
      this.#sweep(folder)
    } catch {
      // the read goes on; the write into this folder sweeps again or reports the failure
      this.#swept.delete(folder)
    }
  }

  /**
   * Before this object's first read or write in relative `folder`: removes the temp files a killed
   * writer left there (one folder has one writer at a time: a participant its namespace, the
   * controller D's top level and token-store/), so they never outlive a retried commit.
   */
  #sweep(folder: string): void {
    if (!this.#writer || this.#swept.has(folder)) return
    this.#swept.add(folder)
    const absolute = folder === '' ? this.#root : join(this.#root, folder)
    const own = new Set([...this.#pending.values()].map((p) => p.temp))
    for (const dirent of readdirSync(absolute, { withFileTypes: true })) {
      if (!dirent.isFile() || !dirent.name.startsWith(TEMP_PREFIX)) continue
      const path = join(absolute, dirent.name)
      if (!own.has(path)) {
        rmSync(path, { force: true })
        this.#touched.add(absolute)
      }
    }
  }

  /** Step 1 of `sync()`: the batch's temp files reach the disk before any of them is renamed. */
  #makeDurable(batch: readonly PendingWrite[]): void {
    if (durability === 'syncfs' && batch.length > PER_FILE_BATCH) {
      // syncfs(2) flushes the whole file system holding D once (data + journal): far cheaper than
      // an fdatasync per file, each of which waits for its own journal commit.
      const r = spawnSync('sync', ['--file-system', this.#root], { stdio: 'ignore' })
      if (r.error === undefined && r.status === 0) {
        this.#durabilitySteps++
        return
      }
      durability = 'per-file'
    }
    for (const p of batch) {
      const fd = openSync(p.temp, constants.O_RDONLY | constants.O_NOFOLLOW)
      try {
        fdatasyncSync(fd)
        this.#durabilitySteps++
      } finally {
        closeSync(fd)
      }
    }
  }

  readFile(path: string): Uint8Array | undefined {
    if (!isSafeRelativePath(path)) return undefined
    const pending = this.#pending.get(path)
    if (pending !== undefined) return pending.data.slice()
    const slash = path.lastIndexOf('/')
    const folder = slash >= 0 ? path.slice(0, slash) : ''
    if (slash >= 0 && !this.#isRealFolder(folder)) return undefined
    // A writer reads what it is about to rewrite or replay (an existing manifest) first: the
    // temp files a killed writer left in that folder go before they can be seen.
    if (this.#writer && !this.#swept.has(folder)) this.#sweepQuietly(folder)
    const full = join(this.#root, path)
    const stat = lstatOrUndefined(full)
    if (!stat?.isFile()) return undefined
    // A file this object wrote and nobody has touched since (same inode, size, mtime and ctime:
    // any write or replacement changes the ctime) reads from memory instead of open/read/close.
    const durable = this.#durable.get(path)
    if (durable !== undefined) {
      if (durable.signature === fileSignature(stat)) return durable.data.slice()
      this.#durable.delete(path)
    }
    pause(READ_PAUSE_MS)
    let fd: number
    try {
      fd = openSync(full, constants.O_RDONLY | constants.O_NOFOLLOW)
    } catch {
      return undefined
    }
    try {
      const out = new Uint8Array(stat.size)
      let offset = 0
      while (offset < out.length) {
        const n = readSync(fd, out, offset, out.length - offset, offset)
        if (n === 0) return out.subarray(0, offset)
        offset += n
      }
      return out
    } finally {
      closeSync(fd)
    }
  }

  list(): readonly DirectoryEntry[] {
    const out: DirectoryEntry[] = []
    // This writer's own temp files stand for their pending targets, listed below instead.
    const ownTemps = new Set([...this.#pending.values()].map((p) => p.temp))
    const walk = (relative: string) => {
      const absolute = relative === '' ? this.#root : join(this.#root, relative)
      for (const dirent of readdirSync(absolute, { withFileTypes: true })) {
        const path = relative === '' ? dirent.name : `${relative}/${dirent.name}`
        if (ownTemps.has(join(this.#root, path)) || this.#pending.has(path)) continue
        if (dirent.isSymbolicLink()) out.push(lazyEntry(path, 'symlink', join(this.#root, path)))
        else if (dirent.isDirectory()) walk(path)
        else if (dirent.isFile()) out.push(lazyEntry(path, 'file', join(this.#root, path)))
      }
    }
    walk('')
    for (const [path, p] of this.#pending) out.push({ path, kind: 'file', bytes: p.data.length })
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  }

  /**
   * Whether relative `folder` is a real directory all the way down from D (no symlink on the way).
   * A folder found real is remembered for this object's lifetime, as written folders are: reading
   * the 2,335 files of a 1,000-rollout checkpoint then costs one lstat per folder instead of one
   * per path segment per file.
   */
  #isRealFolder(folder: string): boolean {
    if (this.#knownDirs.has(folder)) return true
    let relative = ''
    for (const segment of folder.split('/')) {
      relative = relative === '' ? segment : `${relative}/${segment}`
      if (this.#knownDirs.has(relative)) continue
      if (!lstatOrUndefined(join(this.#root, relative))?.isDirectory()) return false
      this.#knownDirs.add(relative)
    }
    return true
  }

  /**
   * Creates `folder` (relative) segment by segment, refusing symlinks; new folders dirty their
   * parent.
   */
  #ensureFolder(folder: string): void {
    if (folder === '' || this.#knownDirs.has(folder)) return
    let relative = ''
    for (const segment of folder.split('/')) {
      const parent = relative
      relative = relative === '' ? segment : `${relative}/${segment}`
      if (this.#knownDirs.has(relative)) continue
      const absolute = join(this.#root, relative)
      const stat = lstatOrUndefined(absolute)
      if (stat === undefined) {
        mkdirSync(absolute)
        // The new folder's entry lives in its parent: that parent must be fsynced too.
        this.#touched.add(join(this.#root, parent))
        this.#touched.add(absolute)
      } else if (stat.isSymbolicLink()) {
        throw new DirectoryWriteError(
          relative,
          `refusing to write through symlink ${relative}`,
          'checkpoint_dir_invalid',
        )
      } else if (!stat.isDirectory()) {
        throw new DirectoryWriteError(
          relative,
          `${relative} is not a directory`,
          'checkpoint_dir_invalid',
        )
      }
      this.#knownDirs.add(relative)
    }
  }
}

/**
 * A listed entry whose size is read (one lstat) only when asked: the loaders list D once per
 * namespace and read only paths and kinds, which the directory listing itself gives. A file gone by
 * then has size 0.
 */
function lazyEntry(path: string, kind: DirectoryEntry['kind'], absolute: string): DirectoryEntry {
  let bytes: number | undefined
  return {
    path,
    kind,
    get bytes() {
      bytes ??= lstatOrUndefined(absolute)?.size ?? 0
      return bytes
    },
  }
}

/** A file made durable by this object, kept to answer reads while the file is unchanged. */
interface DurableFile {
  readonly data: Uint8Array
  readonly signature: string
}

/** What changes whenever a file's bytes or identity change: inode, size, mtime and ctime. */
function fileSignature(stat: Stats): string {
  return `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`
}

/** Removes a file if it can; a folder that is not one (the failure being reported) is left. */
function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true })
  } catch {
    // the write's own failure is the one reported
  }
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path)
  } catch {
    return undefined
  }
}

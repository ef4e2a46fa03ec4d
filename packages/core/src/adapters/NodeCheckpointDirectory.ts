import {
  closeSync,
  constants,
  fdatasyncSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import type { CheckpointDirectory, DirectoryEntry } from '../directory/CheckpointDirectory.ts'
import { DirectoryWriteError } from '../directory/CheckpointDirectory.ts'
import { isSafeRelativePath } from '../directory/safePath.ts'

/** Prefix of in-flight temp files; a crash can leave one behind, and verify then reports it. */
const TEMP_PREFIX = '.cutover-tmp-'

/**
 * The directory port over the real file system. A write goes to a temp file in the same folder,
 * is written, fdatasync'ed and renamed over the target (atomic on POSIX); `sync()` then fsyncs each
 * folder touched since the last sync once — not once per file, which is what makes a 1,000-file
 * commit cheap. Never follows a symlink: a symlinked folder on the way refuses the write or read,
 * a symlinked file reads as absent, and `list()` reports symlinks as kind `symlink` without
 * descending into them.
 */
export class NodeCheckpointDirectory implements CheckpointDirectory {
  readonly location: string
  readonly #root: string
  readonly #touched = new Set<string>()
  /** Folders already known to exist as real directories (not symlinks) in this process. */
  readonly #knownDirs = new Set<string>()
  #counter = 0
  #writes = 0
  #folderSyncs = 0

  /** Files written and folder fsyncs so far (each file is fdatasync'ed once, on its write). */
  get stats(): { readonly writes: number; readonly folderSyncs: number } {
    return { writes: this.#writes, folderSyncs: this.#folderSyncs }
  }

  /**
   * `root` is D, an absolute path. A writer creates it when missing (`create`, the default); a
   * reader (`create: false`) throws when it is missing or not a directory.
   */
  constructor(root: string, options: { readonly create?: boolean } = {}) {
    this.location = root
    this.#root = root
    if (options.create ?? true) mkdirSync(root, { recursive: true })
    if (!lstatSync(root).isDirectory()) throw new Error(`${root} is not a directory`)
  }

  writeFile(path: string, data: Uint8Array): void {
    if (!isSafeRelativePath(path)) throw new DirectoryWriteError(path, `refusing unsafe path ${JSON.stringify(path)}`)
    const folder = dirname(path)
    this.#ensureFolder(folder === '.' ? '' : folder)
    const target = join(this.#root, path)
    const base = path.slice(path.lastIndexOf('/') + 1)
    const temp = join(this.#root, folder === '.' ? '' : folder, `${TEMP_PREFIX}${base}-${process.pid}-${this.#counter++}`)
    let renamed = false
    try {
      const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644)
      try {
        let offset = 0
        while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset)
        // The data must be on disk before the rename makes it visible under the final name.
        fdatasyncSync(fd)
      } finally {
        closeSync(fd)
      }
      renameSync(temp, target)
      renamed = true
      this.#writes++
      this.#touched.add(join(this.#root, folder === '.' ? '' : folder))
    } catch (e) {
      if (e instanceof DirectoryWriteError) throw e
      throw new DirectoryWriteError(path, `write of ${path} failed: ${(e as Error).message}`)
    } finally {
      if (!renamed) rmSync(temp, { force: true })
    }
  }

  sync(): void {
    for (const folder of [...this.#touched].sort()) {
      const fd = openSync(folder, constants.O_RDONLY | constants.O_DIRECTORY)
      try {
        fsyncSync(fd)
        this.#folderSyncs++
      } finally {
        closeSync(fd)
      }
    }
    this.#touched.clear()
  }

  readFile(path: string): Uint8Array | undefined {
    if (!isSafeRelativePath(path)) return undefined
    const segments = path.split('/')
    let current = this.#root
    for (const segment of segments.slice(0, -1)) {
      current = join(current, segment)
      const stat = lstatOrUndefined(current)
      if (!stat?.isDirectory()) return undefined
    }
    const full = join(this.#root, path)
    const stat = lstatOrUndefined(full)
    if (!stat?.isFile()) return undefined
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
    const walk = (relative: string) => {
      const absolute = relative === '' ? this.#root : join(this.#root, relative)
      for (const dirent of readdirSync(absolute, { withFileTypes: true })) {
        const path = relative === '' ? dirent.name : `${relative}/${dirent.name}`
        if (dirent.isSymbolicLink()) out.push({ path, kind: 'symlink', bytes: lstatSync(join(this.#root, path)).size })
        else if (dirent.isDirectory()) walk(path)
        else if (dirent.isFile()) out.push({ path, kind: 'file', bytes: lstatSync(join(this.#root, path)).size })
      }
    }
    walk('')
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  }

  /** Creates `folder` (relative) segment by segment, refusing symlinks; new folders dirty their parent. */
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
        throw new DirectoryWriteError(relative, `refusing to write through symlink ${relative}`)
      } else if (!stat.isDirectory()) {
        throw new DirectoryWriteError(relative, `${relative} is not a directory`)
      }
      this.#knownDirs.add(relative)
    }
  }
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path)
  } catch {
    return undefined
  }
}

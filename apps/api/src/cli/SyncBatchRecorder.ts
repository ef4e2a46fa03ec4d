import { lstatSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { CheckpointDirectory, DirectoryEntry } from '@cutover/core'

/** One file of a written checkpoint: its path below the run's folder and its size. */
export interface LayoutFile {
  readonly path: string
  readonly bytes: number
}

/**
 * The files of the checkpoints a run wrote, as they are on disk, grouped in the `sync()` batches
 * that made them durable (in order): what `measureFsFloor` writes again.
 */
export interface CheckpointLayout {
  readonly batches: readonly (readonly LayoutFile[])[]
}

/**
 * Records which files each `sync()` of the directories a run writes makes durable, so the bench's
 * floor can replay the same batches. Each wrapped directory passes every call through unchanged.
 */
export class SyncBatchRecorder {
  readonly #batches: string[][] = []

  /** `dir` (the checkpoint folder `prefix` below the run's folder), recorded. */
  wrap(prefix: string, dir: CheckpointDirectory): CheckpointDirectory {
    const batches = this.#batches
    let pending = new Set<string>()
    return {
      location: dir.location,
      writeFile(path: string, data: Uint8Array): void {
        dir.writeFile(path, data)
        pending.add(`${prefix}/${path}`)
      },
      sync(): void {
        dir.sync()
        if (pending.size > 0) batches.push([...pending])
        pending = new Set()
      },
      readFile: (path: string): Uint8Array | undefined => dir.readFile(path),
      list: (): readonly DirectoryEntry[] => dir.list(),
    }
  }

  /**
   * The layout of the checkpoint folders `prefixes` below `root` as written: every file found
   * there, with its size on disk, in the last batch that wrote it (a file no recorded batch wrote
   * goes in a batch of its own at the end; a recorded file no longer there is left out).
   */
  layout(root: string, prefixes: readonly string[]): CheckpointLayout {
    const onDisk = new Map<string, number>()
    for (const prefix of prefixes)
      for (const f of listFiles(join(root, prefix))) onDisk.set(`${prefix}/${f.path}`, f.bytes)
    const lastBatch = new Map<string, number>()
    this.#batches.forEach((batch, i) => {
      for (const path of batch) lastBatch.set(path, i)
    })
    const batches: LayoutFile[][] = this.#batches.map(() => [])
    const unrecorded: LayoutFile[] = []
    for (const [path, bytes] of onDisk) {
      const i = lastBatch.get(path)
      ;(i === undefined ? unrecorded : (batches[i] as LayoutFile[])).push({ path, bytes })
    }
    return { batches: [...batches, unrecorded].filter((b) => b.length > 0) }
  }
}

/** Every regular file below `folder`, recursively, with its size, sorted by path. */
export function listFiles(folder: string): LayoutFile[] {
  const out: LayoutFile[] = []
  const walk = (relative: string) => {
    const absolute = relative === '' ? folder : join(folder, relative)
    for (const dirent of readdirSync(absolute, { withFileTypes: true })) {
      const path = relative === '' ? dirent.name : `${relative}/${dirent.name}`
      if (dirent.isDirectory()) walk(path)
      else if (dirent.isFile()) out.push({ path, bytes: lstatSync(join(folder, path)).size })
    }
  }
  walk('')
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

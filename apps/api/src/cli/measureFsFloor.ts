import { spawnSync } from 'node:child_process'
import {
  closeSync,
  constants,
  fdatasyncSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  renameSync,
  writeSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { TEMP_PREFIX } from '@cutover/core/adapters'
import { removeSettled } from './removeSettled.ts'
import type { CheckpointLayout, LayoutFile } from './SyncBatchRecorder.ts'
import { listFiles } from './SyncBatchRecorder.ts'

/** What one floor measurement took, and the files it left (read back after the timing). */
export interface FsFloorFigures {
  readonly ms: number
  readonly written: readonly LayoutFile[]
}

/**
 * Batches of at most this many files are made durable with an fdatasync each, larger ones with one
 * `syncfs`: `NodeCheckpointDirectory`'s own rule (its `PER_FILE_BATCH`).
 */
const PER_FILE_BATCH = 2

/**
 * The physical floor of a checkpoint (`fs_floor_ms`): writes the files of `layout` again, with the
 * same sizes, in a fresh folder below `tempRoot` (so on the same file system as the checkpoint),
 * with the durability steps `NodeCheckpointDirectory` takes and nothing else. Each checkpoint
 * folder (the first path segment) is created as its directory object creates it; then batch by
 * batch, as its `sync()` does: each file is created as a temp file beside its target (`O_EXCL`,
 * missing folders made one segment at a time, each new folder dirtying its parent), written and
 * closed; the batch is made durable in one `syncfs` (`sync --file-system`) on Linux when it holds
 * more than two files, else by one fdatasync per file; each temp is renamed over its target; each
 * folder touched is fsynced once. No hashing, encoding, validation, read-back or bookkeeping. The
 * folder is removed afterwards and the removal flushed (`removeSettled`), outside the timing.
 */
export function measureFsFloor(layout: CheckpointLayout, tempRoot?: string): FsFloorFigures {
  const root = mkdtempSync(join(tempRoot ?? tmpdir(), 'cutover-floor-'))
  try {
    const largest = Math.max(0, ...layout.batches.flatMap((b) => b.map((f) => f.bytes)))
    const content = new Uint8Array(largest)
    for (let i = 0; i < largest; i++) content[i] = 0x20 + ((i * 31) % 95)
    const t0 = performance.now()
    writeLayout(root, layout, content)
    const ms = performance.now() - t0
    return { ms, written: listFiles(root) }
  } finally {
    removeSettled(root)
  }
}

function writeLayout(root: string, layout: CheckpointLayout, content: Uint8Array): void {
  const known = new Set<string>()
  const syncfs = process.platform === 'linux'
  let counter = 0
  for (const batch of layout.batches) {
    const touched = new Set<string>()
    const temps: { readonly temp: string; readonly target: string; readonly folder: string }[] = []
    for (const file of batch) {
      const folder = dirname(file.path)
      ensureFolder(root, folder, known, touched)
      const temp = join(
        root,
        folder,
        `${TEMP_PREFIX}${file.path.slice(folder.length + 1)}-${++counter}`,
      )
      const fd = openSync(
        temp,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o644,
      )
      try {
        let offset = 0
        while (offset < file.bytes) offset += writeSync(fd, content, offset, file.bytes - offset)
      } finally {
        closeSync(fd)
      }
      temps.push({ temp, target: join(root, file.path), folder: join(root, folder) })
    }
    if (syncfs && temps.length > PER_FILE_BATCH)
      spawnSync('sync', ['--file-system', join(root, firstSegment(batch))], { stdio: 'ignore' })
    else
      for (const t of temps) {
        const fd = openSync(t.temp, constants.O_RDONLY | constants.O_NOFOLLOW)
        try {
          fdatasyncSync(fd)
        } finally {
          closeSync(fd)
        }
      }
    for (const t of temps) {
      renameSync(t.temp, t.target)
      touched.add(t.folder)
    }
    for (const folder of [...touched].sort()) {
      const fd = openSync(folder, constants.O_RDONLY | constants.O_DIRECTORY)
      try {
        fsyncSync(fd)
      } finally {
        closeSync(fd)
      }
    }
  }
}

function firstSegment(batch: readonly LayoutFile[]): string {
  const path = (batch[0] as LayoutFile).path
  return path.slice(0, path.indexOf('/'))
}

/**
 * Creates relative `folder` segment by segment as `NodeCheckpointDirectory` does: its first segment
 * (the checkpoint folder) as the directory object's constructor does (`mkdir -p`, no parent
 * dirtied), each further missing segment with one lstat and one mkdir, dirtying itself and its
 * parent.
 */
function ensureFolder(root: string, folder: string, known: Set<string>, touched: Set<string>) {
  if (known.has(folder)) return
  const segments = folder.split('/')
  let relative = ''
  for (const [i, segment] of segments.entries()) {
    const parent = relative
    relative = relative === '' ? segment : `${relative}/${segment}`
    if (known.has(relative)) continue
    const absolute = join(root, relative)
    if (i === 0) mkdirSync(absolute, { recursive: true })
    else {
      let exists = true
      try {
        lstatSync(absolute)
      } catch {
        exists = false
      }
      if (!exists) {
        mkdirSync(absolute)
        touched.add(join(root, parent))
        touched.add(absolute)
      }
    }
    known.add(relative)
  }
}

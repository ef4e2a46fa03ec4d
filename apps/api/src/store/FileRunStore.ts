import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { CheckpointDirectory } from '@cutover/core'
import { err, isSafeRelativePath, ok } from '@cutover/core'
import type { RunView, TraceEvent } from '@cutover/core/contracts'
import { cutoverError } from '@cutover/core/contracts'
import { writeFileAtomic } from '@cutover/core/adapters'
import type { DamagedRun, RunStore, UnreadableRun } from './RunStore.ts'
import { damagedRunView, openRunFile, sealRunFile } from './runFile.ts'

/**
 * Opens a real checkpoint directory at an absolute path (NodeCheckpointDirectory); `create` for
 * writers.
 */
export type OpenDirectory = (path: string, create: boolean) => CheckpointDirectory

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/
/** What a run id looks like (runViewSchema's `id`). */
const RUN_ID = /^[0-9a-z]{1,64}$/

/** The data directory on disk. Every write of run.json / trace.json is atomic. */
export function createFileRunStore(root: string, openDirectory: OpenDirectory): RunStore {
  const dataDir = resolve(root)
  const runsDir = join(dataDir, 'runs')
  const runDir = (id: string): string => {
    // Ids come from our own minting or a validated URL param; refuse anything else outright.
    if (!SAFE_NAME.test(id)) throw new Error(`not a run id: ${JSON.stringify(id)}`)
    return join(runsDir, id)
  }
  const checkpointPath = (runId: string, checkpointId: string): string => {
    if (!SAFE_NAME.test(checkpointId))
      throw new Error(`not a checkpoint id: ${JSON.stringify(checkpointId)}`)
    return join(runDir(runId), 'checkpoints', checkpointId)
  }

  return {
    root: dataDir,
    listRuns() {
      if (!existsSync(runsDir)) return { runs: [], unreadable: [], damaged: [] }
      const runs: RunView[] = []
      const unreadable: UnreadableRun[] = []
      const damaged: DamagedRun[] = []
      for (const entry of readdirSync(runsDir, { withFileTypes: true })) {
        if (!entry.isDirectory() || entry.name.startsWith('.')) continue
        const file = join(runsDir, entry.name, 'run.json')
        let text: string
        try {
          text = readFileSync(file, 'utf8')
        } catch (error) {
          unreadable.push({
            folder: entry.name,
            reason: error instanceof Error ? error.message : String(error),
          })
          continue
        }
        // A folder whose name is no run id is not a run (nothing could address it).
        if (!RUN_ID.test(entry.name)) {
          unreadable.push({ folder: entry.name, reason: 'not a run id' })
          continue
        }
        const opened = openRunFile(text)
        const reason = !opened.ok
          ? opened.error
          : opened.value.id !== entry.name
            ? `run.json names run ${opened.value.id}`
            : null
        if (reason === null && opened.ok) runs.push(opened.value)
        else
          damaged.push({
            folder: entry.name,
            view: damagedRunView(entry.name, text, reason ?? 'run.json is damaged'),
          })
      }
      runs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      return { runs, unreadable, damaged }
    },
    readRun(runId) {
      let text: string
      try {
        text = readFileSync(join(runDir(runId), 'run.json'), 'utf8')
      } catch {
        return undefined
      }
      const opened = openRunFile(text)
      return opened.ok && opened.value.id === runId ? opened.value : undefined
    },
    writeRun(view) {
      mkdirSync(runDir(view.id), { recursive: true })
      writeFileAtomic(join(runDir(view.id), 'run.json'), sealRunFile(view))
    },
    writeTrace(runId, json) {
      mkdirSync(runDir(runId), { recursive: true })
      writeFileAtomic(join(runDir(runId), 'trace.json'), json)
    },
    hasTrace(runId) {
      return existsSync(join(runDir(runId), 'trace.json'))
    },
    readTrace(runId) {
      const file = join(runDir(runId), 'trace.json')
      if (!existsSync(file)) return undefined
      try {
        const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'))
        return Array.isArray(parsed) ? (parsed as TraceEvent[]) : undefined
      } catch {
        return undefined
      }
    },
    recordingPath(runId) {
      return join(runDir(runId), 'exchanges.jsonl')
    },
    removeRun(runId) {
      rmSync(runDir(runId), { recursive: true, force: true })
    },
    checkpointPath,
    relativePath(path) {
      if (!isAbsolute(path)) return path
      const inside = relative(dataDir, path)
      if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside))
        return basename(path)
      return inside.split(sep).join('/')
    },
    openCheckpoint(runId, checkpointId) {
      const path = checkpointPath(runId, checkpointId)
      mkdirSync(path, { recursive: true })
      return openDirectory(path, true)
    },
    listCheckpoints(runId) {
      const dir = join(runDir(runId), 'checkpoints')
      if (!existsSync(dir)) return []
      return readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory() && SAFE_NAME.test(e.name))
        .map((e) => e.name)
        .sort()
    },
    readCheckpointFile(runId, checkpointId, relativePath) {
      if (!isSafeRelativePath(relativePath))
        return err(
          cutoverError(
            'path_escape',
            `path ${JSON.stringify(relativePath)} leaves the checkpoint directory`,
          ),
        )
      let current = checkpointPath(runId, checkpointId)
      const segments = relativePath.split('/')
      for (const [i, segment] of segments.entries()) {
        current = join(current, segment)
        let stat
        try {
          stat = lstatSync(current)
        } catch {
          return err(
            cutoverError('file_not_found', `no file ${relativePath} in checkpoint ${checkpointId}`),
          )
        }
        // A symlink could point anywhere: refused wherever it sits on the path.
        if (stat.isSymbolicLink())
          return err(
            cutoverError('path_escape', `${segments.slice(0, i + 1).join('/')} is a symlink`),
          )
        const last = i === segments.length - 1
        if (last ? !stat.isFile() : !stat.isDirectory())
          return err(
            cutoverError('file_not_found', `no file ${relativePath} in checkpoint ${checkpointId}`),
          )
      }
      return ok(readFileSync(current))
    },
    readCheckpoint(runId, checkpointId) {
      const path = checkpointPath(runId, checkpointId)
      try {
        if (!lstatSync(path).isDirectory()) return undefined
      } catch {
        return undefined
      }
      return openDirectory(path, false)
    },
  }
}

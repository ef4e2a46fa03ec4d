import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type {
  CheckpointDirectory,
  Clock,
  Digest,
  DirectoryInspection,
  Result,
  WorkplaceBase,
} from '@cutover/core'
import {
  diffSummary,
  err,
  inspectDirectory,
  ok,
  parseWorkplaceBase,
  snapshotTables,
} from '@cutover/core'
import type { CutoverError, DirectoryRunView, TablesView } from '@cutover/core/contracts'
import { cutoverError } from '@cutover/core/contracts'
import { loadNodeWorkplaceData, writeFileAtomic } from '@cutover/core/adapters'
import { inspectRoots } from './inspectRoots.ts'
import { resolveInspectPath } from './resolveInspectPath.ts'

/** What the directory runs need from the edge. */
export interface DirectoryRunsDeps {
  readonly dataDir: string
  readonly digest: Digest
  /** Wall-clock ms, for `created_at` only. */
  readonly clock: Clock
  /** Opens an existing directory read-only (never creates or writes). */
  readonly openReadOnly: (path: string) => CheckpointDirectory
  /**
   * The pristine Workplace tables, to decode Workplace snapshots (default: the vendored data,
   * parsed on first use).
   */
  readonly workplace?: () => WorkplaceBase
  readonly env?: NodeJS.ProcessEnv
  /**
   * Inspects the directory at a path off the server's thread (the checkpoint worker reads, hashes
   * and decodes every file); default: in this thread, through `openReadOnly`.
   */
  readonly inspect?: (path: string) => Promise<DirectoryInspection>
}

/** A directory run as recorded in the data directory: which directory, opened when. */
interface DirectoryRecord {
  readonly id: string
  readonly path: string
  readonly created_at: string
}

/** Checkpoint directories opened read-only as runs of kind `directory` (docs/http-api.md). */
export interface DirectoryRuns {
  /**
   * Opens (or re-opens, re-reading it) the directory at `path`; the same directory keeps its id.
   */
  open(path: string): Promise<Result<DirectoryRunView, CutoverError>>
  /** The directory run with this id (read again from disk when not cached), or undefined. */
  get(id: string): Promise<DirectoryRunView | undefined>
  /** Every directory run opened so far, newest first, without re-reading them. */
  list(): readonly { readonly id: string; readonly path: string; readonly created_at: string }[]
  /** A Workplace session's tables against the base, or why not. */
  tables(id: string, key: string): Promise<Result<TablesView, CutoverError>>
  /**
   * One file of the directory as it is on disk now: only a regular file the inspection lists (never
   * through a symlink).
   */
  file(id: string, relative: string): Promise<Result<Uint8Array, CutoverError>>
}

const ID_PREFIX = 'dir'

/**
 * Whether a run id names a directory run (they never collide with simulated run ids: 11 base-36
 * chars).
 */
export const isDirectoryRunId = (id: string): boolean =>
  id.startsWith(ID_PREFIX) && id.length === ID_PREFIX.length + 16

/**
 * The registry of directory runs. Only the record `{ id, path, created_at }` is stored, under
 * `<data>/directories/`, so a permalink survives a restart; the inspection itself is re-read from
 * the directory. Nothing is ever written into an inspected directory.
 */
export function createDirectoryRuns(deps: DirectoryRunsDeps): DirectoryRuns {
  const folder = join(deps.dataDir, 'directories')
  const records = new Map<string, DirectoryRecord>()
  const views = new Map<string, DirectoryRunView>()
  let loaded = false
  let base: WorkplaceBase | undefined
  const workplace =
    deps.workplace ?? (() => (base ??= parseWorkplaceBase(loadNodeWorkplaceData(), deps.digest)))

  const load = () => {
    if (loaded) return
    loaded = true
    if (!existsSync(folder)) return
    for (const name of readdirSync(folder)) {
      if (!name.endsWith('.json')) continue
      try {
        const record = JSON.parse(readFileSync(join(folder, name), 'utf8')) as DirectoryRecord
        if (
          typeof record.id === 'string' &&
          isDirectoryRunId(record.id) &&
          typeof record.path === 'string' &&
          typeof record.created_at === 'string'
        ) {
          records.set(record.id, {
            id: record.id,
            path: record.path,
            created_at: record.created_at,
          })
        }
      } catch {
        // an unreadable record is skipped; the directory can be opened again
      }
    }
  }

  const inspectAt =
    deps.inspect ??
    (async (path: string) => inspectDirectory(deps.openReadOnly(path), deps.digest, workplace()))
  const inspect = async (record: DirectoryRecord): Promise<DirectoryRunView> => {
    const inspection = await inspectAt(record.path)
    const view: DirectoryRunView = {
      id: record.id,
      kind: 'directory',
      path: record.path,
      status: 'complete',
      created_at: record.created_at,
      events: 0,
      ...inspection,
    }
    views.set(record.id, view)
    return view
  }

  const get = async (id: string): Promise<DirectoryRunView | undefined> => {
    load()
    const cached = views.get(id)
    if (cached !== undefined) return cached
    const record = records.get(id)
    if (record === undefined) return undefined
    const again = resolveInspectPath(
      record.path,
      inspectRoots(deps.dataDir, deps.env),
      deps.dataDir,
    )
    if (!again.ok) return undefined
    return inspect(record)
  }

  return {
    async open(path) {
      load()
      // A relative path reads as the runs API names checkpoints: relative to the data directory.
      const resolved = resolveInspectPath(path, inspectRoots(deps.dataDir, deps.env), deps.dataDir)
      if (!resolved.ok) return resolved
      const id = `${ID_PREFIX}${deps.digest.sha256Hex(new TextEncoder().encode(resolved.value)).slice(0, 16)}`
      let record = records.get(id)
      if (record === undefined) {
        record = { id, path: resolved.value, created_at: new Date(deps.clock.now()).toISOString() }
        let view: DirectoryRunView
        try {
          view = await inspect(record)
        } catch (error) {
          return err(
            cutoverError(
              'not_a_checkpoint_directory',
              `cannot read ${resolved.value}: ${error instanceof Error ? error.message : String(error)}`,
            ),
          )
        }
        mkdirSync(folder, { recursive: true })
        writeFileAtomic(join(folder, `${id}.json`), `${JSON.stringify(record)}\n`)
        records.set(id, record)
        return ok(view)
      }
      return ok(await inspect(record))
    },
    get,
    list() {
      load()
      return [...records.values()].sort((a, b) =>
        a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0,
      )
    },
    async file(id, relative) {
      const view = await get(id)
      if (view === undefined) return err(cutoverError('run_not_found', `no directory run ${id}`))
      const listed = view.files.find((f) => f.path === relative)
      if (listed === undefined || listed.kind !== 'file') {
        return err(
          cutoverError(
            listed?.kind === 'symlink' ? 'path_escape' : 'file_not_found',
            `${view.path} has no regular file ${JSON.stringify(relative)}`,
          ),
        )
      }
      const bytes = deps.openReadOnly(view.path).readFile(relative)
      return bytes === undefined
        ? err(cutoverError('file_not_found', `${relative} is gone from ${view.path}`))
        : ok(bytes)
    },
    async tables(id, key) {
      const view = await get(id)
      if (view === undefined) return err(cutoverError('run_not_found', `no directory run ${id}`))
      const session = view.sessions.find((s) => s.row.key === key)
      if (session === undefined)
        return err(
          cutoverError(
            'session_not_found',
            `directory ${view.path} has no snapshot of session ${key}`,
          ),
        )
      if (session.row.environment !== 'workplace')
        return err(
          cutoverError(
            'session_not_found',
            `session ${key} is a ${session.row.environment} session: only Workplace sessions have tables`,
          ),
        )
      const tables = snapshotTables(workplace(), session.state)
      if (!tables.ok)
        return err(cutoverError('invalid_request', `session ${key}: ${tables.error.message}`))
      return ok({
        step: 0,
        session: key,
        baseline: 'base',
        tables: tables.value,
        summary: diffSummary(tables.value),
      })
    },
  }
}

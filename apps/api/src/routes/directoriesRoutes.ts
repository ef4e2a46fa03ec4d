import { Hono } from 'hono'
import { z } from 'zod'
import type { DirectoryRunView } from '@cutover/core/contracts'
import { cutoverErrorResponse, errorResponse } from '../http/errorResponse.ts'
import { readValidJson, validate } from '../http/jsonBody.ts'
import type { DirectoryRuns } from '../directories/createDirectoryRuns.ts'
import { isDirectoryRunId } from '../directories/createDirectoryRuns.ts'
import { runIdParam, sessionKeyParam } from './params.ts'

/** `POST /api/directories` body: a path on the server's machine. */
const openDirectoryBody = z.strictObject({ path: z.string().min(1).max(4096) })

/**
 * Checkpoint directories opened read-only as runs (docs/http-api.md): open by path (201 with the
 * directory run), list, get, and a Workplace session's tables. `GET /runs/:id` answers for a
 * directory run and passes every other id on to the simulated runs' route.
 */
export function directoriesRoutes(directories: DirectoryRuns): Hono {
  const app = new Hono()

  app.post('/directories', async (c) => {
    const body = await readValidJson(c, openDirectoryBody, 'directory')
    if (!body.ok) return cutoverErrorResponse(c, body.error)
    const opened = await directories.open(body.value.path)
    if (!opened.ok) return cutoverErrorResponse(c, opened.error)
    return c.json(opened.value satisfies DirectoryRunView, 201)
  })

  app.get('/directories', (c) => c.json({ directories: directories.list() }))

  const requireDirectory = async (raw: string | undefined) => {
    const id = validate(runIdParam, raw, 'run id')
    if (!id.ok) return id
    const view = await directories.get(id.value)
    return view === undefined
      ? {
          ok: false as const,
          error: { code: 'run_not_found' as const, message: `no directory run ${id.value}` },
        }
      : { ok: true as const, value: view }
  }

  app.get('/directories/:id', async (c) => {
    const view = await requireDirectory(c.req.param('id'))
    return view.ok ? c.json(view.value) : cutoverErrorResponse(c, view.error)
  })

  app.get('/directories/:id/sessions/:session/tables', async (c) => {
    const view = await requireDirectory(c.req.param('id'))
    if (!view.ok) return cutoverErrorResponse(c, view.error)
    const key = validate(sessionKeyParam, c.req.param('session'), 'session')
    if (!key.ok) return cutoverErrorResponse(c, key.error)
    const tables = await directories.tables(view.value.id, key.value)
    return tables.ok ? c.json(tables.value) : cutoverErrorResponse(c, tables.error)
  })

  app.get('/directories/:id/files/*', async (c) => {
    const view = await requireDirectory(c.req.param('id'))
    if (!view.ok) return cutoverErrorResponse(c, view.error)
    // The raw path after `/files/`, each segment decoded once (as for a run's checkpoint files).
    const rest = /\/files\/(.*)$/.exec(new URL(c.req.url).pathname)?.[1] ?? ''
    let relative: string
    try {
      relative = rest
        .split('/')
        .map((segment) => decodeURIComponent(segment))
        .join('/')
    } catch {
      return errorResponse(c, 'invalid_request', 'file path is not valid percent-encoding')
    }
    const file = await directories.file(view.value.id, relative)
    if (!file.ok) return cutoverErrorResponse(c, file.error)
    const type = relative.endsWith('.json')
      ? 'application/json; charset=utf-8'
      : relative.endsWith('.jsonl')
        ? 'application/x-ndjson; charset=utf-8'
        : 'application/octet-stream'
    return c.body(new Uint8Array(file.value), 200, { 'content-type': type })
  })

  // A directory run is a run: its id opens at /runs/:id like any other.
  app.get('/runs/:id', async (c, next) => {
    const id = c.req.param('id')
    if (!isDirectoryRunId(id)) return next()
    const view = await directories.get(id)
    return view === undefined ? errorResponse(c, 'run_not_found', `no run ${id}`) : c.json(view)
  })

  return app
}

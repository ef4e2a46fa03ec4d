import { Hono } from 'hono'
import type { Context } from 'hono'
import { streamSSE } from 'hono/streaming'
import type { EventsRange, RunSummary, RunView } from '@cutover/core/contracts'
import { runConfigSchema } from '@cutover/core/contracts'
import { BUG_CATALOGUE } from '@cutover/core'
import { cutoverErrorResponse, errorResponse } from '../http/errorResponse.ts'
import { readJson, validate } from '../http/jsonBody.ts'
import type { RunManager } from '../runs/RunManager.ts'
import { damagedError } from '../runs/RunManager.ts'
import type { SimulatorPort } from '../runs/SimulatorPort.ts'
import { yieldToEventLoop } from '../runs/driveSimulation.ts'
import { eventsJsonBody } from '../runs/traceJson.ts'
import { eventsRange } from '../runs/eventsRange.ts'
import { runSummaryOf } from '../runs/runSummaryOf.ts'
import { eventsRangeQuery, noQuery, runIdParam } from './params.ts'

/**
 * Trace events per SSE write when a stream catches up on a backlog (one write per turn of the event
 * loop).
 */
const SSE_BATCH = 2000

/** Events a range answers when `limit` is not given. */
const DEFAULT_EVENTS_LIMIT = 1000

/** Resolves `:id` to a known run, or answers 400/404. */
/** The body of `POST /api/runs`: a run config and, optionally, the run it was made from. */
const createRunBody = runConfigSchema.extend({ parent: runIdParam.optional() })

export function requireRun(c: Context, runs: RunManager): { id: string; view: RunView } | Response {
  const id = validate(runIdParam, c.req.param('id'), 'run id')
  if (!id.ok) return cutoverErrorResponse(c, id.error)
  const view = runs.get(id.value)
  if (view === undefined) return errorResponse(c, 'run_not_found', `no run ${id.value}`)
  return { id: id.value, view }
}

/**
 * `requireRun` for what reads a run's trace (its summary, its events, its views): a damaged run is
 * 409 `run_damaged` (never served as if whole).
 */
export function requireWholeRun(
  c: Context,
  runs: RunManager,
): { id: string; view: RunView } | Response {
  const run = requireRun(c, runs)
  if (run instanceof Response || run.view.status !== 'damaged') return run
  return cutoverErrorResponse(c, damagedError(run.view))
}

/** Parses `Last-Event-ID`: the step after which an SSE stream resumes. */
function lastEventId(c: Context): number | Response {
  const raw = c.req.header('last-event-id')
  if (raw === undefined || raw.trim() === '') return 0
  if (!/^(0|[1-9][0-9]{0,8})$/.test(raw.trim()))
    return errorResponse(
      c,
      'invalid_request',
      `Last-Event-ID must be a step number, got ${JSON.stringify(raw)}`,
    )
  return Number(raw.trim())
}

/**
 * Scenarios and runs: create (201 at once, the simulation runs on in the background), list, get,
 * delete, and the event log as JSON or as a live SSE stream (docs/http-api.md).
 */
export function runsRoutes(runs: RunManager, simulator: SimulatorPort): Hono {
  const app = new Hono()
  /** Live event streams per run id, capped at `runs.limits.streamsPerRun`. */
  const streams = new Map<string, number>()

  app.get('/scenarios', (c) => c.json({ scenarios: simulator.scenarios }))

  app.get('/bugs', (c) => c.json({ bugs: BUG_CATALOGUE }))

  app.post('/runs', async (c) => {
    const body = await readJson(c)
    if (!body.ok) return cutoverErrorResponse(c, body.error)
    // A well-formed name that is not a preset is an unknown resource, not a malformed body.
    const scenario = (body.value as { scenario?: unknown } | null)?.scenario
    if (typeof scenario === 'string' && !simulator.scenarios.some((s) => s.name === scenario)) {
      return errorResponse(
        c,
        'scenario_not_found',
        `no scenario ${JSON.stringify(scenario)} (one of ${simulator.scenarios.map((s) => s.name).join(', ')})`,
      )
    }
    const input = validate(createRunBody, body.value, 'run config')
    if (!input.ok) return cutoverErrorResponse(c, input.error)
    // `parent` names the run this one was made from: kept on the view, never part of the config
    const { parent, ...configInput } = input.value
    if (parent !== undefined && runs.get(parent) === undefined)
      return errorResponse(c, 'run_not_found', `parent: no run ${JSON.stringify(parent)}`)
    const config = simulator.resolve(configInput)
    if (!config.ok) return cutoverErrorResponse(c, config.error)
    const created = runs.create(config.value, parent === undefined ? {} : { parent })
    if (!created.ok) return cutoverErrorResponse(c, created.error)
    return c.json(created.value satisfies RunView, 201)
  })

  app.get('/runs', (c) => c.json({ runs: runs.list() }))

  app.get('/runs/:id', (c) => {
    const run = requireRun(c, runs)
    return run instanceof Response ? run : c.json(run.view satisfies RunView)
  })

  app.delete('/runs/:id', (c) => {
    const run = requireRun(c, runs)
    if (run instanceof Response) return run
    runs.remove(run.id)
    return c.body(null, 204)
  })

  // What the run page needs from the whole trace (phase bands, key moments, phases present, the
  // event total and the last event), at a streaming run's edge or of a finished run.
  app.get('/runs/:id/summary', async (c) => {
    const query = validate(noQuery, c.req.query(), 'query')
    if (!query.ok) return cutoverErrorResponse(c, query.error)
    const run = requireWholeRun(c, runs)
    if (run instanceof Response) return run
    await runs.loadEvents(run.id)
    const events = runs.events(run.id) ?? []
    return c.json((await runSummaryOf(events)) satisfies RunSummary)
  })

  app.get('/runs/:id/events', async (c) => {
    const query = validate(eventsRangeQuery, c.req.query(), 'query')
    if (!query.ok) return cutoverErrorResponse(c, query.error)
    const run = requireWholeRun(c, runs)
    if (run instanceof Response) return run
    // a reloaded run's trace.json is parsed off this thread, once
    await runs.loadEvents(run.id)
    const accept = c.req.header('accept') ?? ''
    // A range (any query parameter): a page of the events (the Events tab, a rollout's events), not
    // the whole list.
    const range = query.value
    if (Object.keys(range).length > 0 && !accept.includes('text/event-stream')) {
      const events = runs.events(run.id) ?? []
      const { from, limit, ...filters } = range
      return c.json(
        (await eventsRange(events, {
          from: Number(from ?? 0),
          limit: Number(limit ?? DEFAULT_EVENTS_LIMIT),
          ...filters,
        })) satisfies EventsRange,
      )
    }
    // Streamed a few thousand events per turn of the event loop: a 10,000-rollout run's events are
    // ~100 MB of JSON.
    if (!accept.includes('text/event-stream')) {
      const events = runs.events(run.id) ?? []
      // A running run's events as they were when asked (its array grows while the body streams).
      return c.body(eventsJsonBody(run.view.status === 'running' ? events.slice() : events), 200, {
        'content-type': 'application/json',
      })
    }
    // `?from=` starts a stream after that step as `Last-Event-ID` does (the header, a reconnect,
    // wins)
    const resumed = lastEventId(c)
    if (resumed instanceof Response) return resumed
    const after =
      c.req.header('last-event-id') === undefined && range.from !== undefined
        ? Number(range.from)
        : resumed
    const open = streams.get(run.id) ?? 0
    if (open >= runs.limits.streamsPerRun) {
      return errorResponse(
        c,
        'too_many_streams',
        `run ${run.id} already has ${open} live event streams, the limit (CUTOVER_MAX_STREAMS_PER_RUN=${runs.limits.streamsPerRun})`,
      )
    }
    streams.set(run.id, open + 1)
    return streamSSE(c, async (stream) => {
      let wake: (() => void) | undefined
      let aborted = false
      const unsubscribe = runs.subscribe(run.id, () => wake?.())
      stream.onAbort(() => {
        aborted = true
        wake?.()
      })
      try {
        let sent = after
        while (!aborted) {
          const events = runs.events(run.id)
          if (events === undefined) return // deleted while streaming
          while (sent < events.length && !aborted) {
            // One write per batch (a backlog in batches, yielding between): the messages are
            // `writeSSE`'s format (JSON data is a single line).
            if (sent > after) await yieldToEventLoop()
            const batch = events.slice(sent, Math.min(events.length, sent + SSE_BATCH))
            let chunk = ''
            for (const event of batch)
              chunk += `event: trace\nid: ${event.step}\ndata: ${JSON.stringify(event)}\n\n`
            sent += batch.length
            await stream.write(chunk)
          }
          const view = runs.get(run.id)
          if (view === undefined) return
          if (view.status !== 'running' && sent >= (runs.events(run.id)?.length ?? 0)) {
            await stream.writeSSE({ event: 'end', data: JSON.stringify(view) })
            return
          }
          // No await between the checks above and arming `wake`: a batch cannot slip past unseen.
          await new Promise<void>((resolve) => {
            wake = resolve
          })
          wake = undefined
        }
      } finally {
        unsubscribe()
        const left = (streams.get(run.id) ?? 1) - 1
        if (left > 0) streams.set(run.id, left)
        else streams.delete(run.id)
      }
    })
  })

  return app
}

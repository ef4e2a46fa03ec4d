import { Hono } from 'hono'
import type { Context } from 'hono'
import type { LineageView, TracePhase } from '@cutover/core/contracts'
import { DEFAULT_SESSION_SORT } from '@cutover/core/contracts'
import { cutoverErrorResponse, errorResponse } from '../http/errorResponse.ts'
import { validate } from '../http/jsonBody.ts'
import type { RunManager } from '../runs/RunManager.ts'
import type { RunViews } from '../runs/RunViews.ts'
import {
  noQuery,
  sessionKeyParam,
  sessionsQuery,
  stepOnlyQuery,
  stepQuery,
  stepText,
  timelineQuery,
} from './params.ts'
import { requireRun } from './runsRoutes.ts'

/**
 * The simulation of `:id` (a running one up to its current edge, without waiting for its end), or
 * the error response.
 */
async function requireResult(c: Context, runs: RunManager): Promise<RunViews | Response> {
  const run = requireRun(c, runs)
  if (run instanceof Response) return run
  const views = await runs.views(run.id)
  return views.ok ? views.value : cutoverErrorResponse(c, views.error)
}

/**
 * A view's JSON text (StepView, SessionsView, SessionDetailView of core contracts) as the response
 * body.
 */
const jsonText = (c: Context, text: string | undefined): Response =>
  c.body(text ?? 'null', 200, { 'content-type': 'application/json' })

/** A step within 0..total from text (path or `?step=`), default total. */
function parseStep(c: Context, raw: string | undefined, total: number): number | Response {
  if (raw === undefined) return total
  const text = validate(stepText, raw, 'step')
  if (!text.ok) return cutoverErrorResponse(c, text.error)
  const step = Number(text.value)
  if (step > total)
    return errorResponse(
      c,
      'invalid_request',
      `step ${step} is past the end of the run (steps 0 to ${total})`,
    )
  return step
}

/**
 * A session route's `:id`, `:session` and `?step=` resolved (in that order of checks), or the error
 * response.
 */
async function requireSessionAt(
  c: Context,
  runs: RunManager,
): Promise<{ result: RunViews; key: string; step: number } | Response> {
  const query = validate(stepOnlyQuery, c.req.query(), 'query')
  if (!query.ok) return cutoverErrorResponse(c, query.error)
  const key = validate(sessionKeyParam, c.req.param('session'), 'session')
  if (!key.ok) return cutoverErrorResponse(c, key.error)
  const result = await requireResult(c, runs)
  if (result instanceof Response) return result
  const step = parseStep(c, query.value.step, result.events.length)
  if (typeof step !== 'number') return step
  return { result, key: key.value, step }
}

/**
 * Views of one run at one step (docs/http-api.md): the step view with its diagram window, the
 * session rows, one session beside its prepare snapshot, a Workplace session's tables with their
 * diff, and the lineage.
 */
export function runViewRoutes(runs: RunManager): Hono {
  const app = new Hono()

  app.get('/runs/:id/steps/:n', async (c) => {
    const query = validate(stepQuery, c.req.query(), 'query')
    if (!query.ok) return cutoverErrorResponse(c, query.error)
    const result = await requireResult(c, runs)
    if (result instanceof Response) return result
    const total = result.events.length
    const step = parseStep(c, c.req.param('n'), total)
    if (typeof step !== 'number') return step
    const collapsed = (query.value.collapsed ?? '')
      .split(',')
      .filter((p) => p !== '') as TracePhase[]
    const size = query.value.window === undefined ? undefined : Number(query.value.window)
    // Built and encoded where the simulation lives (a run's worker thread): this thread only sends
    // the text.
    return jsonText(c, await result.json('stepView', { step, total, collapsed, size }))
  })

  // the payload panel: the message at a step, its pair, the participant fields it changed and its
  // session before and after (two card lists, whatever the run's size)
  app.get('/runs/:id/steps/:n/message', async (c) => {
    const query = validate(noQuery, c.req.query(), 'query')
    if (!query.ok) return cutoverErrorResponse(c, query.error)
    const result = await requireResult(c, runs)
    if (result instanceof Response) return result
    const total = result.events.length
    const step = parseStep(c, c.req.param('n'), total)
    if (typeof step !== 'number') return step
    if (step === 0)
      return errorResponse(c, 'invalid_request', 'step 0 is before the first message: no message')
    return jsonText(c, await result.json('messageView', { step, total }))
  })

  // the Gantt of virtual time: a window of its lanes, built in the run's worker
  app.get('/runs/:id/timeline', async (c) => {
    const query = validate(timelineQuery, c.req.query(), 'query')
    if (!query.ok) return cutoverErrorResponse(c, query.error)
    const result = await requireResult(c, runs)
    if (result instanceof Response) return result
    const total = result.events.length
    const step = parseStep(c, query.value.step, total)
    if (typeof step !== 'number') return step
    const { offset, limit, rollout } = query.value
    return jsonText(
      c,
      await result.json('timelineView', {
        step,
        total,
        offset: Number(offset ?? 0),
        limit: Number(limit ?? 100),
        rollout,
      }),
    )
  })

  app.get('/runs/:id/sessions', async (c) => {
    const query = validate(sessionsQuery, c.req.query(), 'query')
    if (!query.ok) return cutoverErrorResponse(c, query.error)
    const result = await requireResult(c, runs)
    if (result instanceof Response) return result
    const total = result.events.length
    const { step: stepRaw, offset, limit, sort, dir, q, session, environment } = query.value
    const step = parseStep(c, stepRaw, total)
    if (typeof step !== 'number') return step
    // 18,766 rows at 10,000 rollouts: built and encoded in the run's worker, like the step view.
    if ([offset, limit, sort, dir, q, session, environment].every((p) => p === undefined))
      return jsonText(c, await result.json('sessionsView', { step, total }))
    // a window of them, sorted and filtered in the worker (the Sessions tab asks the rows in view)
    const order = {
      column: sort ?? DEFAULT_SESSION_SORT.column,
      direction: dir ?? DEFAULT_SESSION_SORT.direction,
    }
    return jsonText(
      c,
      await result.json('sessionsWindow', {
        step,
        total,
        offset: Number(offset ?? 0),
        limit: Number(limit ?? 1_000),
        sort: order,
        q: q ?? '',
        session,
        environment,
      }),
    )
  })

  app.get('/runs/:id/sessions/:session', async (c) => {
    const at = await requireSessionAt(c, runs)
    if (at instanceof Response) return at
    const { result, key, step } = at
    const detail = await result.json('sessionDetail', key, step)
    if (detail === undefined)
      return errorResponse(c, 'session_not_found', `run has no session ${key} at step ${step}`)
    return jsonText(c, detail)
  })

  app.get('/runs/:id/sessions/:session/tables', async (c) => {
    const at = await requireSessionAt(c, runs)
    if (at instanceof Response) return at
    const { result, key, step } = at
    const tables = await result.json('tablesView', key, step)
    if (tables !== undefined) return jsonText(c, tables)
    const detail = await result.sessionDetail(key, step)
    if (detail === undefined)
      return errorResponse(c, 'session_not_found', `run has no session ${key} at step ${step}`)
    return errorResponse(
      c,
      'session_not_found',
      `session ${key} is a ${detail.session.environment} session: only Workplace sessions have tables`,
    )
  })

  app.get('/runs/:id/lineage', async (c) => {
    const query = validate(stepOnlyQuery, c.req.query(), 'query')
    if (!query.ok) return cutoverErrorResponse(c, query.error)
    const result = await requireResult(c, runs)
    if (result instanceof Response) return result
    const step = parseStep(c, query.value.step, result.events.length)
    if (typeof step !== 'number') return step
    return c.json((await result.lineage(step)) satisfies LineageView)
  })

  return app
}

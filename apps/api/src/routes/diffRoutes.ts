import { Hono } from 'hono'
import { z } from 'zod'
import { compareStates, diffTraces, summarizeDiff } from '@cutover/core'
import type { RunDiffView } from '@cutover/core/contracts'
import { cutoverErrorResponse, errorResponse } from '../http/errorResponse.ts'
import { validate } from '../http/jsonBody.ts'
import type { RunManager } from '../runs/RunManager.ts'
import { runIdParam } from './params.ts'

/** `?a=<run>&b=<run>`. */
const diffQuery = z.strictObject({ a: runIdParam, b: runIdParam })

/** Differences listed on the page; events shown per side of each. */
const LISTED = 200
const EVENTS_SHOWN = 10

/**
 * `GET /api/diff?a=<run>&b=<run>`: the two runs' traces aligned (core `diffTraces`), the first
 * divergent event with what differs in the participants and sessions at that step (each run's state
 * after its divergent event), then every difference in order.
 */
export function diffRoutes(runs: RunManager): Hono {
  const app = new Hono()

  app.get('/diff', async (c) => {
    const query = validate(diffQuery, c.req.query(), 'query')
    if (!query.ok) return cutoverErrorResponse(c, query.error)
    const { a, b } = query.value
    const run_a = runs.get(a)
    if (run_a === undefined) return errorResponse(c, 'run_not_found', `no run ${a} (a)`)
    const run_b = runs.get(b)
    if (run_b === undefined) return errorResponse(c, 'run_not_found', `no run ${b} (b)`)
    // A queued run is not waited for (its slot may be minutes away): the diff is refused at once.
    for (const [run, side] of [
      [run_a, 'a'],
      [run_b, 'b'],
    ] as const)
      if (run.queue_position !== undefined)
        return errorResponse(
          c,
          'run_not_started',
          `run ${run.id} (${side}) is queued for a simulation slot (position ${run.queue_position})`,
        )
    // Each run's views where its simulation lives (its worker thread while it holds them): only the
    // two states at the divergence cross over, never a re-simulation on this thread.
    const [ra, rb] = await Promise.all([runs.settledViews(a), runs.settledViews(b)])
    if (!ra.ok) return cutoverErrorResponse(c, ra.error)
    if (!rb.ok) return cutoverErrorResponse(c, rb.error)
    const diff = diffTraces(ra.value.events, rb.value.events)
    const summary = summarizeDiff(diff, ra.value.events, rb.value.events)
    const first = summary.first_divergence
    const at = (step: number, total: number) => Math.min(step, total)
    const states =
      first === null
        ? null
        : await Promise.all([
            ra.value.participantsAt(at(first.step_a, ra.value.events.length)),
            rb.value.participantsAt(at(first.step_b, rb.value.events.length)),
            ra.value.sessionsAt(at(first.step_a, ra.value.events.length)),
            rb.value.sessionsAt(at(first.step_b, rb.value.events.length)),
          ])
    const view: RunDiffView = {
      ...summary,
      run_a,
      run_b,
      at_divergence:
        states === null
          ? null
          : {
              participants: compareStates(states[0], states[1], (p) => p.id),
              sessions: compareStates(states[2], states[3], (s) => s.key),
            },
      listed: diff.differences.slice(0, LISTED).map((d) => ({
        step_a: d.step_a,
        step_b: d.step_b,
        a: d.a.slice(0, EVENTS_SHOWN),
        b: d.b.slice(0, EVENTS_SHOWN),
        a_count: d.a.length,
        b_count: d.b.length,
      })),
      listed_limit: LISTED,
      truncated: diff.truncated,
    }
    return c.json(view)
  })

  return app
}

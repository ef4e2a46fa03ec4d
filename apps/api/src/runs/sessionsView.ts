import type { SimulationResult } from '@cutover/core'
import type { SessionsView } from '@cutover/core/contracts'

/**
 * What `GET /api/runs/:id/sessions?step=n` asks for: a step of a run whose first `total` events are
 * known.
 */
export interface SessionsViewQuery {
  readonly step: number
  /** The events the request saw (a running run's edge when it arrived). */
  readonly total: number
}

/**
 * Every session row at `step` (the Sessions and Tables tabs). Like the step view it is built and
 * JSON-encoded where the simulation lives; `result` may have run past `total`, the rows stop at
 * `step` ≤ `total`.
 */
export function sessionsView(
  result: Pick<SimulationResult, 'sessionsAt'>,
  query: SessionsViewQuery,
): SessionsView {
  return { step: query.step, total: query.total, sessions: result.sessionsAt(query.step) }
}

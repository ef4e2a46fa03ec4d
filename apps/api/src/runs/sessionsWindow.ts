import type { SimulationResult } from '@cutover/core'
import type { EnvName, SessionRow, SessionSort, SessionsWindow } from '@cutover/core/contracts'
import { sessionNeedle, sortSessions } from '@cutover/core/contracts'

/** What `GET /api/runs/:id/sessions?step=n&offset=&limit=&sort=&dir=&q=&session=` asks for. */
export interface SessionsWindowQuery {
  readonly step: number
  /** The events the request saw (a running run's edge when it arrived). */
  readonly total: number
  readonly offset: number
  /** Rows to answer at most (0: only the counts and `selected`). */
  readonly limit: number
  readonly sort: SessionSort
  /** The Sessions filter text (`sortSessions`). */
  readonly q: string
  /** Only the sessions of one environment (the Tables tab's Workplace picker). */
  readonly environment?: EnvName | undefined
  /** A session whose existence and position the answer gives (`selected`). */
  readonly session?: string | undefined
}

type Source = Pick<SimulationResult, 'sessionsAt'>

/**
 * The last sorted list of each run (a scroll asks window after window of the same step, order and
 * filter).
 */
const lastSorted = new WeakMap<
  Source,
  {
    readonly key: string
    readonly all: readonly SessionRow[]
    readonly rows: readonly SessionRow[]
  }
>()

/**
 * The rows at `step`, and those the filter keeps in the asked order (kept for the next window of
 * the same).
 */
function sortedAt(
  result: Source,
  query: SessionsWindowQuery,
): { all: readonly SessionRow[]; rows: readonly SessionRow[] } {
  const { step, q, sort, environment } = query
  const key = JSON.stringify([
    step,
    sessionNeedle(q),
    sort.column,
    sort.direction,
    environment ?? null,
  ])
  const kept = lastSorted.get(result)
  if (kept?.key === key) return kept
  const all = result.sessionsAt(step)
  const entry = {
    key,
    all,
    rows: sortSessions(
      environment === undefined ? all : all.filter((r) => r.environment === environment),
      q,
      sort,
    ),
  }
  lastSorted.set(result, entry)
  return entry
}

/**
 * A window of the session rows at `step`, sorted and filtered as the Sessions table shows them
 * (one implementation: `sortSessions` of core's contracts). Built where the simulation lives, like
 * the whole-list `sessionsView`: at 10,000 rollouts a window of 100 rows is ≈ 15 KB of JSON where
 * the whole list is ≈ 3 MB.
 */
export function sessionsWindow(result: Source, query: SessionsWindowQuery): SessionsWindow {
  const { all, rows } = sortedAt(result, query)
  const offset = Math.min(query.offset, rows.length)
  const window: SessionsWindow = {
    step: query.step,
    total: query.total,
    count: all.length,
    matched: rows.length,
    offset,
    sessions: rows.slice(offset, offset + query.limit),
  }
  if (query.session === undefined) return window
  const key = query.session
  const index = rows.findIndex((r) => r.key === key)
  return {
    ...window,
    selected: {
      key,
      exists: index >= 0 || all.some((r) => r.key === key),
      index: index >= 0 ? index : null,
    },
  }
}

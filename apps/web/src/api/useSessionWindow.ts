import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { SessionSort } from '@cutover/core/contracts'
import { sessionsWindowQuery } from './queries.ts'
import { useSettledStep } from './useSettledStep.ts'

/**
 * Rows per block of a window: a window starts and ends on a block, so a scroll of a few rows asks
 * nothing new.
 */
export const SESSIONS_BLOCK = 100

/** The window that covers rows `start` to `end` (those drawn): whole blocks, at least one. */
export function sessionsWindowOf(start: number, end: number): { offset: number; limit: number } {
  const offset = Math.floor(Math.max(0, start) / SESSIONS_BLOCK) * SESSIONS_BLOCK
  const stop = Math.max(offset + SESSIONS_BLOCK, Math.ceil(end / SESSIONS_BLOCK) * SESSIONS_BLOCK)
  return { offset, limit: stop - offset }
}

/** What the Sessions tab shows: the rows drawn, the order and filter, and the selected session. */
export interface SessionsAsk {
  readonly start: number
  readonly end: number
  readonly sort: SessionSort
  readonly q: string
  readonly session: string | null
}

/**
 * The window of session rows in view at `step` (`GET /api/runs/:id/sessions?step=&offset=&limit=&
 * sort=&dir=&q=&session=`), sorted and filtered by the server: at 10,000 rollouts ≈ 15 KB per step
 * where the whole list was ≈ 3 MB. The step is asked once it settles (`useSettledStep`); while the
 * next window loads the previous one stays (no flicker): `isPlaceholderData` says so.
 */
export function useSessionWindow(runId: string, step: number, ask: SessionsAsk) {
  const asked = useSettledStep(runId, step)
  const { offset, limit } = sessionsWindowOf(ask.start, ask.end)
  const params = {
    step: asked,
    offset,
    limit,
    sort: ask.sort.column,
    dir: ask.sort.direction,
    q: ask.q.trim(),
    session: ask.session ?? undefined,
  }
  return useQuery({ ...sessionsWindowQuery(runId, params), placeholderData: keepPreviousData })
}

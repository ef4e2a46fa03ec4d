import { rowChangeSteps, stateRequests } from '@cutover/core'
import type { TablesView } from '@cutover/core/contracts'
import type { RunViews } from './RunViews.ts'

/**
 * A Workplace session's tables at `step` with each changed row linked to the step of the request
 * that last changed it (`changed_at`): the requests that made the session's state (core's
 * `stateRequests`), each seen through the tables just before and just after it.
 */
export async function tablesWithChanges(views: RunViews, key: string, step: number): Promise<TablesView | undefined> {
  const tables = await views.tables(key, step)
  if (tables === undefined) return undefined
  const { added, changed, removed } = tables.summary
  if (added + changed + removed === 0) return { ...tables, changed_at: {} }
  const session = (await views.sessionsAt(step)).find((s) => s.key === key)
  const requests = stateRequests(views.events, key, session?.revision ?? null, step)
  const seen = await Promise.all(
    requests.map(async (r) => ({ step: r.step, before: await views.tables(r.session, r.step - 1), after: await views.tables(r.session, r.step) })),
  )
  return { ...tables, changed_at: rowChangeSteps(tables, seen) }
}

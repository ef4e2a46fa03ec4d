import type { TraceMessage } from '../contracts/trace.ts'
import type { JsonValue } from '../json.ts'
import type { RowChangeSteps, TableView, TablesView } from '../contracts/views.ts'

/**
 * A request that moved a session's state to a new revision: its step, and the session that made it.
 */
export interface StateRequest {
  readonly step: number
  /**
   * `<rollout_id>.a<attempt>` of the attempt that sent it (an earlier one for a continued session).
   */
  readonly session: string
  readonly revision: number
}

const SESSION_KEY = /^(.*)\.a(\d+)$/

/**
 * The requests that made a session's state what it is at `step`: for each revision 1…`revision`,
 * the latest event of the rollout (of this attempt, or of an earlier one it continues from its
 * snapshot) that moved the state from the revision before to it. A retired attempt's revision
 * that the restored session never reached is left out; a revision made again after restore is
 * credited to the request that made it again.
 */
export function stateRequests(
  events: readonly TraceMessage[],
  sessionKey: string,
  revision: number | null,
  step: number,
): StateRequest[] {
  const key = SESSION_KEY.exec(sessionKey)
  if (key === null || revision === null) return []
  const rollout = key[1] as string
  const attempt = Number(key[2])
  const producer = new Map<number, StateRequest>()
  for (const e of events) {
    if (e.step > step) break
    const p = e.payload
    if (p['rollout_id'] !== rollout) continue
    const made = p['revision']
    const before = p['revision_before']
    const by = p['attempt_index']
    if (typeof made !== 'number' || typeof before !== 'number' || typeof by !== 'number') continue
    if (made === before || made > revision || by > attempt) continue
    producer.set(made, { step: e.step, session: `${rollout}.a${by}`, revision: made })
  }
  return [...producer.values()].sort((a, b) => a.step - b.step)
}

/**
 * The tables a request saw just before it (`before`, at its step − 1) and left behind (`after`).
 */
export interface RequestTables {
  readonly step: number
  readonly before: TablesView | undefined
  readonly after: TablesView | undefined
}

const rowsOf = (table: TableView | undefined): Map<number, string> =>
  new Map(
    (table?.rows ?? []).map((r) => [r.label, JSON.stringify(r.cells as readonly JsonValue[])]),
  )

/**
 * Links each added, changed or removed row of `current` to the step of the request that last
 * changed it: among `requests` (in step order), the latest whose tables differ in that row
 * (present on one side only, or with other cells) between just before and just after it. A row
 * no request touched (a change made by a restore) gets no step.
 */
export function rowChangeSteps(
  current: TablesView,
  requests: readonly RequestTables[],
): RowChangeSteps {
  const out: { [table: string]: { [label: string]: number } } = {}
  for (const table of current.tables) {
    const wanted = [
      ...table.rows.filter((r) => r.status !== 'same').map((r) => r.label),
      ...table.removed.map((r) => r.label),
    ]
    if (wanted.length === 0) continue
    const found: { [label: string]: number } = {}
    for (let i = requests.length - 1; i >= 0 && Object.keys(found).length < wanted.length; i--) {
      const request = requests[i] as RequestTables
      const before = rowsOf(request.before?.tables.find((t) => t.name === table.name))
      const after = rowsOf(request.after?.tables.find((t) => t.name === table.name))
      for (const label of wanted) {
        if (found[label] === undefined && before.get(label) !== after.get(label))
          found[label] = request.step
      }
    }
    if (Object.keys(found).length > 0) out[table.name] = found
  }
  return out
}

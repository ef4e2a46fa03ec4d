import type { JsonValue } from '../../json.ts'
import type { Cell, Table } from './Table.ts'
import { callTool } from './workplaceTools.ts'
import { freshSession, SESSION_TABLES } from './WorkplaceSession.ts'
import type { WorkplaceBase, WorkplaceSession } from './WorkplaceSession.ts'

// Columns `convert_strs_to_lowercase` leaves alone.
const RAW_COLUMNS = new Set(['status', 'list_name', 'board'])

/**
 * `execute_actions_and_reset_state`: replays calls on a fresh environment with verify semantics:
 * JSON nulls are passed through, and any failure (bad JSON, unknown name, non-dict arguments,
 * a string instead of a list, a tool exception) is skipped. Pure.
 */
export function replayActions(
  base: WorkplaceBase,
  actions: JsonValue | undefined,
): WorkplaceSession {
  let session = freshSession(base)
  // A string ground truth is iterated char by char in Python: every element fails and is skipped.
  if (!Array.isArray(actions)) return session
  for (const action of actions) {
    if (action === null || typeof action !== 'object' || Array.isArray(action)) continue
    const name = action['name']
    const raw = action['arguments']
    if (typeof name !== 'string' || typeof raw !== 'string') continue
    let kwargs: unknown
    try {
      kwargs = JSON.parse(raw)
    } catch {
      continue
    }
    if (kwargs === null || typeof kwargs !== 'object' || Array.isArray(kwargs)) continue
    session = callTool(base, session, name, kwargs as { [k: string]: JsonValue }).session
  }
  return session
}

function gradedCell(column: string, v: Cell | undefined): Cell {
  if (RAW_COLUMNS.has(column)) return v ?? null
  // `.str.lower()`: strings lowercase, anything else (numbers, bools, NaN) becomes NaN.
  return typeof v === 'string' ? v.toLowerCase() : null
}

/** `DataFrame.equals` after `convert_strs_to_lowercase`: columns, labels, order and cells (NaN ≡ NaN). */
export function gradedTablesEqual(a: Table, b: Table): boolean {
  if (a.columns.length !== b.columns.length || a.columns.some((c, i) => c !== b.columns[i]))
    return false
  if (a.rows.length !== b.rows.length || a.labels.some((l, i) => l !== b.labels[i])) return false
  return a.rows.every((row, r) =>
    a.columns.every(
      (c, i) =>
        JSON.stringify(gradedCell(c, row[i])) === JSON.stringify(gradedCell(c, b.rows[r]?.[i])),
    ),
  )
}

/**
 * `is_correct(predicted, ground_truth, None)` (ENVIRONMENTS.md §4.5): both call lists replayed on
 * fresh state; reward 1 when the five graded tables are equal. Ignores any live session. Pure.
 */
export function verifyWorkplace(
  base: WorkplaceBase,
  predicted: JsonValue | undefined,
  groundTruth: JsonValue | undefined,
): 0 | 1 {
  const p = replayActions(base, predicted)
  const g = replayActions(base, groundTruth)
  return SESSION_TABLES.every((name) => gradedTablesEqual(p.tables[name], g.tables[name])) ? 1 : 0
}

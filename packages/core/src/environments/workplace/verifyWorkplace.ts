import type { JsonValue } from '../../json.ts'
import type { Cell, Row, Table } from './Table.ts'
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

/** Two graded cells are equal when their JSON forms are (NaN ≡ NaN ≡ null); `===` settles most. */
function sameGraded(x: Cell, y: Cell): boolean {
  return x === y || JSON.stringify(x) === JSON.stringify(y)
}

/** One row pair under the lowercasing; raw cells that are already identical need no lowercasing. */
function gradedRowsEqual(
  columns: readonly string[],
  x: Row | undefined,
  y: Row | undefined,
): boolean {
  // Tools never mutate rows and share the untouched ones, so the same row object is the common
  // case.
  if (x === y) return true
  for (let i = 0; i < columns.length; i++) {
    const a = x?.[i]
    const b = y?.[i]
    // Identical raw cells grade identically (gradedCell is a pure function of the cell).
    if (a === b && a !== undefined) continue
    const column = columns[i] as string
    if (!sameGraded(gradedCell(column, a), gradedCell(column, b))) return false
  }
  return true
}

/**
 * `DataFrame.equals` after `convert_strs_to_lowercase`: columns, labels, order and cells (NaN ≡
 * NaN). Identity first: an untouched table is the very base object on both sides, and copy-on-write
 * tools share every row they did not change, so only the rows that differ are lowercased.
 */
export function gradedTablesEqual(a: Table, b: Table): boolean {
  if (a === b) return true
  if (
    a.columns !== b.columns &&
    (a.columns.length !== b.columns.length || a.columns.some((c, i) => c !== b.columns[i]))
  )
    return false
  if (a.rows.length !== b.rows.length) return false
  if (a.labels !== b.labels && a.labels.some((l, i) => l !== b.labels[i])) return false
  if (a.rows === b.rows) return true
  for (let r = 0; r < a.rows.length; r++) {
    if (!gradedRowsEqual(a.columns, a.rows[r], b.rows[r])) return false
  }
  return true
}

/**
 * `is_correct(predicted, ground_truth, None)` (docs/environments.md §4.5): both call lists replayed
 * on fresh state; reward 1 when the five graded tables are equal. Ignores any live session. Pure.
 */
export function verifyWorkplace(
  base: WorkplaceBase,
  predicted: JsonValue | undefined,
  groundTruth: JsonValue | undefined,
): 0 | 1 {
  const p = replayCached(base, predicted)
  const g = replayCached(base, groundTruth)
  return SESSION_TABLES.every((name) => gradedTablesEqual(p.tables[name], g.tables[name])) ? 1 : 0
}

/**
 * Replays by the JSON text of the call list, per base: every rollout of a task verifies against the
 * same ground truth, and a simulated agent's calls are mostly that ground truth again. A replay is
 * a pure function of the list's JSON (it reads each call's `name` and `arguments` strings; sessions
 * are immutable), so each distinct list is replayed once. Bounded (it starts over when full).
 */
const replays = new WeakMap<WorkplaceBase, Map<string, WorkplaceSession>>()
const REPLAY_LIMIT = 1024

function replayCached(base: WorkplaceBase, actions: JsonValue | undefined): WorkplaceSession {
  if (!Array.isArray(actions)) return replayActions(base, actions)
  let byText = replays.get(base)
  if (byText === undefined) {
    byText = new Map()
    replays.set(base, byText)
  }
  const text = JSON.stringify(actions)
  let session = byText.get(text)
  if (session === undefined) {
    session = replayActions(base, actions)
    if (byText.size >= REPLAY_LIMIT) byText.clear()
    byText.set(text, session)
  }
  return session
}

import type { SessionRow } from './views.ts'

/**
 * Sessions-table columns, in display order (the sort keys of `GET /api/runs/:id/sessions?sort=`).
 */
export const SESSION_COLUMNS = [
  'rollout_id',
  'attempt',
  'environment',
  'state',
  'revision',
  'session_id',
  'summary',
] as const
export type SessionColumn = (typeof SESSION_COLUMNS)[number]

/** Sort directions of the Sessions table (`dir=`). */
export const SORT_DIRECTIONS = ['asc', 'desc'] as const

export interface SessionSort {
  readonly column: SessionColumn
  readonly direction: (typeof SORT_DIRECTIONS)[number]
}

/** The Sessions table's order before the user picks one: the API's (session key) order. */
export const DEFAULT_SESSION_SORT: SessionSort = { column: 'rollout_id', direction: 'asc' }

/**
 * One collator for every comparison: `localeCompare` with options builds one per call (≈ 250,000
 * calls to sort 18,766 rows).
 */
const COLLATOR = new Intl.Collator('en', { numeric: true })

/**
 * Whether a row matches the Sessions filter: its trimmed, lower-cased text is in any column or the
 * key (empty matches all).
 */
export function sessionMatches(row: SessionRow, needle: string): boolean {
  return (
    needle === '' ||
    SESSION_COLUMNS.some((c) =>
      String(row[c] ?? '')
        .toLowerCase()
        .includes(needle),
    ) ||
    row.key.toLowerCase().includes(needle)
  )
}

/** The filter text as `sessionMatches` takes it. */
export const sessionNeedle = (filter: string): string => filter.trim().toLowerCase()

/**
 * Filters rows by a case-insensitive text match on any column and sorts them; ties keep the API's
 * order (session key order), so the table never reshuffles rows that compare equal. The one
 * implementation of the Sessions table's order: the web sorts a directory's rows with it, a run's
 * worker sorts the windows it serves with it.
 */
export function sortSessions(
  rows: readonly SessionRow[],
  filter: string,
  sort: SessionSort,
): SessionRow[] {
  const needle = sessionNeedle(filter)
  const kept = needle ? rows.filter((row) => sessionMatches(row, needle)) : [...rows]
  const sign = sort.direction === 'asc' ? 1 : -1
  const compare = (a: SessionRow, b: SessionRow): number => {
    const x = a[sort.column]
    const y = b[sort.column]
    let order = 0
    if (x === null && y !== null) order = 1
    else if (y === null && x !== null) order = -1
    else if (typeof x === 'number' && typeof y === 'number') order = x - y
    else order = COLLATOR.compare(String(x), String(y))
    return order * sign
  }
  // The API's order is the default sort's: one pass finds it sorted (18,766 comparisons, not ≈
  // 250,000).
  if (kept.every((row, i) => i === 0 || compare(kept[i - 1] as SessionRow, row) <= 0)) return kept
  const indexed = kept.map((row, index) => ({ row, index }))
  indexed.sort((a, b) => compare(a.row, b.row) || a.index - b.index)
  return indexed.map((entry) => entry.row)
}

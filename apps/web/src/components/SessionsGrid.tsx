import { useMemo } from 'react'
import type { KeyboardEvent } from 'react'
import type { SessionColumn, SessionRow, SessionSort } from '@cutover/core/contracts'
import { SESSION_COLUMNS } from '@cutover/core/contracts'
import { VirtualList } from './VirtualList.tsx'

const ROW_HEIGHT = 30
const HEADERS: { readonly [C in SessionColumn]: string } = {
  rollout_id: 'Rollout',
  attempt: 'Attempt',
  environment: 'Environment',
  state: 'State',
  revision: 'Revision',
  session_id: 'Session',
  summary: 'Summary (vs base tables)',
}

/**
 * The order after clicking `column`'s header: ascending, or the other direction when it is the
 * sorted column.
 */
export const nextSort = (s: SessionSort, column: SessionColumn): SessionSort =>
  s.column === column
    ? { column, direction: s.direction === 'asc' ? 'desc' : 'asc' }
    : { column, direction: 'asc' }

/**
 * The Sessions table as drawn: the filter, sortable headers and a windowed list of `matched` rows
 * (of `count` at the step), each row given by `rowAt` — a row not loaded yet is drawn empty. Where
 * the rows come from (all in memory, or windows asked of the server) is the caller's. ↑/↓ move the
 * selection when a row has focus; Enter selects.
 */
export function SessionsGrid({
  count,
  matched,
  rowAt,
  filter,
  onFilter,
  sort,
  onSort,
  selected,
  selectedIndex,
  onSelect,
  onRange,
  height = 360,
  problemOf,
}: {
  count: number
  matched: number
  rowAt: (index: number) => SessionRow | undefined
  filter: string
  onFilter: (filter: string) => void
  sort: SessionSort
  onSort: (sort: SessionSort) => void
  selected: string | null
  /** The selected row's index among the matched rows, -1 when not among them. */
  selectedIndex: number
  onSelect: (key: string) => void
  /** Told the rows drawn (visible plus overscan). */
  onRange?: (start: number, end: number) => void
  height?: number
  /** A session's verification problem (a directory's damaged snapshot): marked on its row. */
  problemOf?: (key: string) => string | undefined
}) {
  // rows are indices: the sparse array costs nothing at 18,766 rows
  const items = useMemo(() => new Array<undefined>(matched), [matched])

  const onRowKey = (event: KeyboardEvent<HTMLDivElement>, index: number) => {
    const next = event.key === 'ArrowDown' ? index + 1 : event.key === 'ArrowUp' ? index - 1 : null
    if (event.key === 'Enter') {
      event.preventDefault()
      const row = rowAt(index)
      if (row) onSelect(row.key)
      return
    }
    if (next === null || next < 0 || next >= matched) return
    event.preventDefault()
    const row = rowAt(next)
    if (!row) return
    onSelect(row.key)
    // focus follows once the row is drawn
    requestAnimationFrame(() => document.getElementById(`session-row-${row.key}`)?.focus())
  }

  return (
    <div className="sessions" data-testid="sessions-table">
      <div className="table-tools">
        <input
          type="search"
          placeholder="Filter sessions (rollout, state, summary…)"
          aria-label="Filter sessions"
          value={filter}
          onChange={(event) => onFilter(event.currentTarget.value)}
        />
        <span className="muted" aria-live="polite">
          {matched === count ? `${count} sessions` : `${matched} of ${count} sessions`}
        </span>
      </div>
      <div
        role="table"
        aria-label="Sessions"
        aria-rowcount={matched + 1}
        className="vtable sessions-grid"
      >
        <div role="rowgroup">
          <div role="row" className="vtable-head">
            {SESSION_COLUMNS.map((column) => (
              <div
                role="columnheader"
                key={column}
                aria-sort={
                  sort.column === column
                    ? sort.direction === 'asc'
                      ? 'ascending'
                      : 'descending'
                    : 'none'
                }
                className={`col-${column}`}
              >
                <button
                  type="button"
                  className="sort-button"
                  onClick={() => onSort(nextSort(sort, column))}
                >
                  {HEADERS[column]}
                  <span aria-hidden="true" className="sort-mark">
                    {sort.column === column ? (sort.direction === 'asc' ? '▲' : '▼') : ''}
                  </span>
                </button>
              </div>
            ))}
          </div>
        </div>
        {matched === 0 ? (
          <p className="notice notice-empty" style={{ height }}>
            {count === 0 ? 'No sessions exist at this step yet.' : 'No session matches the filter.'}
          </p>
        ) : (
          <VirtualList
            items={items}
            rowHeight={ROW_HEIGHT}
            height={height}
            scrollToIndex={selectedIndex}
            onRange={onRange}
            renderRow={(_, index) => {
              const row = rowAt(index)
              if (row === undefined)
                return (
                  <div
                    role="row"
                    aria-rowindex={index + 2}
                    aria-busy="true"
                    className="vtable-row is-pending"
                  />
                )
              const problem = problemOf?.(row.key)
              return (
                <div
                  role="row"
                  id={`session-row-${row.key}`}
                  data-problem={problem}
                  aria-rowindex={index + 2}
                  aria-selected={row.key === selected}
                  tabIndex={row.key === selected || (selectedIndex < 0 && index === 0) ? 0 : -1}
                  className={`vtable-row state-${row.state}${row.key === selected ? ' is-selected' : ''}${problem ? ' is-damaged' : ''}`}
                  data-session={row.key}
                  onClick={() => onSelect(row.key)}
                  onKeyDown={(event) => onRowKey(event, index)}
                >
                  <div role="cell" className="col-rollout_id mono">
                    {row.rollout_id}
                  </div>
                  <div role="cell" className="col-attempt num">
                    {row.attempt}
                  </div>
                  <div role="cell" className="col-environment">
                    {row.environment}
                  </div>
                  <div role="cell" className="col-state">
                    <span className={`state-chip state-${row.state}`}>{row.state}</span>
                    {problem && (
                      <span className="problem-mark" title={`verification problem: ${problem}`}>
                        {' '}
                        ✗ {problem}
                      </span>
                    )}
                  </div>
                  <div role="cell" className="col-revision num">
                    {row.revision ?? '—'}
                  </div>
                  <div
                    role="cell"
                    className="col-session_id mono"
                    title={row.session_id ?? undefined}
                  >
                    {row.session_id ?? '—'}
                  </div>
                  <div role="cell" className="col-summary" title={row.summary}>
                    {row.summary}
                  </div>
                </div>
              )
            }}
          />
        )}
      </div>
    </div>
  )
}

import { useMemo, useState } from 'react'
import type { KeyboardEvent } from 'react'
import type { SessionColumn, SessionRow, SessionSort } from '@cutover/core/contracts'
import { SESSION_COLUMNS, sortSessions } from '@cutover/core/contracts'
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
 * The sessions at this step: sortable by any column, filterable by text, windowed so 10,000 rows
 * scroll smoothly. ↑/↓ move the selection when a row has focus; Enter selects.
 */
export function SessionsTable({
  rows,
  selected,
  onSelect,
  height = 360,
}: {
  rows: readonly SessionRow[]
  selected: string | null
  onSelect: (key: string) => void
  height?: number
}) {
  const [filter, setFilter] = useState('')
  const [sort, setSort] = useState<SessionSort>({ column: 'rollout_id', direction: 'asc' })
  const shown = useMemo(() => sortSessions(rows, filter, sort), [rows, filter, sort])
  const selectedIndex = selected === null ? -1 : shown.findIndex((r) => r.key === selected)

  const toggleSort = (column: SessionColumn) =>
    setSort((s) => (s.column === column ? { column, direction: s.direction === 'asc' ? 'desc' : 'asc' } : { column, direction: 'asc' }))

  const onRowKey = (event: KeyboardEvent<HTMLDivElement>, index: number) => {
    const next = event.key === 'ArrowDown' ? index + 1 : event.key === 'ArrowUp' ? index - 1 : null
    if (event.key === 'Enter') {
      event.preventDefault()
      const row = shown[index]
      if (row) onSelect(row.key)
      return
    }
    if (next === null || next < 0 || next >= shown.length) return
    event.preventDefault()
    const row = shown[next]
    if (row) onSelect(row.key)
    // focus follows once the row is drawn
    requestAnimationFrame(() => document.getElementById(`session-row-${row?.key}`)?.focus())
  }

  return (
    <div className="sessions" data-testid="sessions-table">
      <div className="table-tools">
        <input
          type="search"
          placeholder="Filter sessions (rollout, state, summary…)"
          aria-label="Filter sessions"
          value={filter}
          onChange={(event) => setFilter(event.currentTarget.value)}
        />
        <span className="muted" aria-live="polite">
          {shown.length === rows.length ? `${rows.length} sessions` : `${shown.length} of ${rows.length} sessions`}
        </span>
      </div>
      <div role="table" aria-label="Sessions" aria-rowcount={shown.length + 1} className="vtable sessions-grid">
        <div role="rowgroup">
          <div role="row" className="vtable-head">
            {SESSION_COLUMNS.map((column) => (
              <div
                role="columnheader"
                key={column}
                aria-sort={sort.column === column ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
                className={`col-${column}`}
              >
                <button type="button" className="sort-button" onClick={() => toggleSort(column)}>
                  {HEADERS[column]}
                  <span aria-hidden="true" className="sort-mark">
                    {sort.column === column ? (sort.direction === 'asc' ? '▲' : '▼') : ''}
                  </span>
                </button>
              </div>
            ))}
          </div>
        </div>
        {shown.length === 0 ? (
          <p className="notice notice-empty" style={{ height }}>
            {rows.length === 0 ? 'No sessions exist at this step yet.' : 'No session matches the filter.'}
          </p>
        ) : (
          <VirtualList
            items={shown}
            rowHeight={ROW_HEIGHT}
            height={height}
            scrollToIndex={selectedIndex}
            renderRow={(row, index) => (
              <div
                role="row"
                id={`session-row-${row.key}`}
                aria-rowindex={index + 2}
                aria-selected={row.key === selected}
                tabIndex={row.key === selected || (selectedIndex < 0 && index === 0) ? 0 : -1}
                className={`vtable-row state-${row.state}${row.key === selected ? ' is-selected' : ''}`}
                data-session={row.key}
                onClick={() => onSelect(row.key)}
                onKeyDown={(event) => onRowKey(event, index)}
              >
                <div role="cell" className="col-rollout_id mono">{row.rollout_id}</div>
                <div role="cell" className="col-attempt num">{row.attempt}</div>
                <div role="cell" className="col-environment">{row.environment}</div>
                <div role="cell" className="col-state">
                  <span className={`state-chip state-${row.state}`}>{row.state}</span>
                </div>
                <div role="cell" className="col-revision num">{row.revision ?? '—'}</div>
                <div role="cell" className="col-session_id mono" title={row.session_id ?? undefined}>{row.session_id ?? '—'}</div>
                <div role="cell" className="col-summary" title={row.summary}>{row.summary}</div>
              </div>
            )}
          />
        )}
      </div>
    </div>
  )
}

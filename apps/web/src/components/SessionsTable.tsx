import { useMemo, useState } from 'react'
import type { SessionRow, SessionSort } from '@cutover/core/contracts'
import { DEFAULT_SESSION_SORT, sortSessions } from '@cutover/core/contracts'
import { SessionsGrid } from './SessionsGrid.tsx'

/**
 * Sessions held in memory (a checkpoint directory's): sorted and filtered here by core's
 * `sortSessions`, drawn windowed so 10,000 rows scroll smoothly. A run's Sessions tab asks the
 * server for the rows in view instead (SessionsTab).
 */
export function SessionsTable({
  rows,
  selected,
  onSelect,
  height = 360,
  problems,
}: {
  rows: readonly SessionRow[]
  /** Verification problems by session key (a directory's damaged snapshots). */
  problems?: ReadonlyMap<string, string>
  selected: string | null
  onSelect: (key: string) => void
  height?: number
}) {
  const [filter, setFilter] = useState('')
  const [sort, setSort] = useState<SessionSort>(DEFAULT_SESSION_SORT)
  const shown = useMemo(() => sortSessions(rows, filter, sort), [rows, filter, sort])
  const selectedIndex = selected === null ? -1 : shown.findIndex((r) => r.key === selected)
  return (
    <SessionsGrid
      count={rows.length}
      matched={shown.length}
      rowAt={(index) => shown[index]}
      filter={filter}
      onFilter={setFilter}
      sort={sort}
      onSort={setSort}
      selected={selected}
      selectedIndex={selectedIndex}
      onSelect={onSelect}
      height={height}
      problemOf={problems && ((key) => problems.get(key))}
    />
  )
}

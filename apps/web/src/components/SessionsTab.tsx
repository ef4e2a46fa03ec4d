import { useCallback, useState } from 'react'
import type { SessionSort } from '@cutover/core/contracts'
import { DEFAULT_SESSION_SORT } from '@cutover/core/contracts'
import { useSessionWindow } from '../api/useSessionWindow.ts'
import { Empty } from './Empty.tsx'
import { ErrorNotice } from './ErrorNotice.tsx'
import { Loading } from './Loading.tsx'
import { SessionDetail } from './SessionDetail.tsx'
import { SessionsGrid } from './SessionsGrid.tsx'

/**
 * The Sessions tab: the table, and the selected session's state beside its prepare snapshot. The
 * table asks the server only for the rows in view (a window, sorted and filtered there: 18,766 rows
 * at 10,000 rollouts never cross the wire at once); while the next window loads — another step,
 * order or filter, or a scroll past the rows held — the previous one stays, marked busy.
 */
export function SessionsTab({
  runId,
  step,
  selected,
  onSelect,
  onOpenTables,
  onSeek,
}: {
  runId: string
  step: number
  selected: string | null
  onSelect: (key: string) => void
  onOpenTables: () => void
  onSeek: (step: number) => void
}) {
  const [filter, setFilter] = useState('')
  const [sort, setSort] = useState<SessionSort>(DEFAULT_SESSION_SORT)
  const [range, setRange] = useState({ start: 0, end: 0 })
  const onRange = useCallback(
    (start: number, end: number) =>
      setRange((old) => (old.start === start && old.end === end ? old : { start, end })),
    [],
  )
  const rows = useSessionWindow(runId, step, { ...range, sort, q: filter, session: selected })
  if (rows.status === 'pending') return <Loading what="the sessions" minHeight={360} />
  if (rows.status === 'error')
    return (
      <ErrorNotice
        what={`load the sessions at step ${step}`}
        error={rows.error}
        onRetry={() => void rows.refetch()}
      />
    )
  const data = rows.data
  const rowAt = (index: number) => data.sessions[index - data.offset]
  // the selected session's place is known once the window asked with it has come
  const located = data.selected?.key === selected ? data.selected : undefined
  return (
    <div className="sessions-tab" aria-busy={data.step !== step || rows.isPlaceholderData}>
      <SessionsGrid
        count={data.count}
        matched={data.matched}
        rowAt={rowAt}
        filter={filter}
        onFilter={setFilter}
        sort={sort}
        onSort={setSort}
        selected={selected}
        selectedIndex={located?.index ?? -1}
        onSelect={onSelect}
        onRange={onRange}
      />
      {selected && located?.exists !== false ? (
        <SessionDetail
          runId={runId}
          sessionKey={selected}
          step={step}
          onOpenTables={onOpenTables}
          onSeek={onSeek}
        />
      ) : selected ? (
        // a permalinked session may not exist yet at this step (attempt N+1 before restore)
        <Empty>
          Session <span className="mono">{selected}</span> does not exist at step {data.step}.
        </Empty>
      ) : (
        <Empty>Select a session to see its state at this step beside its prepare snapshot.</Empty>
      )}
    </div>
  )
}

import type { SessionRow } from '@cutover/core/contracts'
import { Empty } from './Empty.tsx'
import { SessionDetail } from './SessionDetail.tsx'
import { SessionsTable } from './SessionsTable.tsx'

/** The Sessions tab: the table, and the selected session's state beside its prepare snapshot. */
export function SessionsTab({
  runId,
  step,
  rows,
  selected,
  onSelect,
  onOpenTables,
}: {
  runId: string
  step: number
  rows: readonly SessionRow[]
  selected: string | null
  onSelect: (key: string) => void
  onOpenTables: () => void
}) {
  return (
    <div className="sessions-tab">
      <SessionsTable rows={rows} selected={selected} onSelect={onSelect} />
      {selected ? (
        <SessionDetail runId={runId} sessionKey={selected} step={step} onOpenTables={onOpenTables} />
      ) : (
        <Empty>Select a session to see its state at this step beside its prepare snapshot.</Empty>
      )}
    </div>
  )
}

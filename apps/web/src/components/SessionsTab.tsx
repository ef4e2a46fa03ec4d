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
  onSeek,
}: {
  runId: string
  step: number
  rows: readonly SessionRow[]
  selected: string | null
  onSelect: (key: string) => void
  onOpenTables: () => void
  onSeek: (step: number) => void
}) {
  return (
    <div className="sessions-tab">
      <SessionsTable rows={rows} selected={selected} onSelect={onSelect} />
      {selected && rows.some((r) => r.key === selected) ? (
        <SessionDetail runId={runId} sessionKey={selected} step={step} onOpenTables={onOpenTables} onSeek={onSeek} />
      ) : selected ? (
        // a permalinked session may not exist yet at this step (attempt N+1 before restore)
        <Empty>
          Session <span className="mono">{selected}</span> does not exist at step {step}.
        </Empty>
      ) : (
        <Empty>Select a session to see its state at this step beside its prepare snapshot.</Empty>
      )}
    </div>
  )
}

import { useSessionRows } from '../api/useSessionRows.ts'
import { Empty } from './Empty.tsx'
import { ErrorNotice } from './ErrorNotice.tsx'
import { Loading } from './Loading.tsx'
import { SessionDetail } from './SessionDetail.tsx'
import { SessionsTable } from './SessionsTable.tsx'

/**
 * The Sessions tab: the table, and the selected session's state beside its prepare snapshot. The
 * rows are a query of their own (not in the step view); while the next step's rows load, the
 * previous step's stay.
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
  const sessions = useSessionRows(runId, step)
  if (sessions.status === 'pending') return <Loading what="the sessions" minHeight={360} />
  if (sessions.status === 'error') return <ErrorNotice what={`load the sessions at step ${step}`} error={sessions.error} onRetry={() => void sessions.refetch()} />
  const rows = sessions.data.sessions
  return (
    <div className="sessions-tab" aria-busy={sessions.data.step !== step}>
      <SessionsTable rows={rows} selected={selected} onSelect={onSelect} />
      {selected && rows.some((r) => r.key === selected) ? (
        <SessionDetail runId={runId} sessionKey={selected} step={step} onOpenTables={onOpenTables} onSeek={onSeek} />
      ) : selected ? (
        // a permalinked session may not exist yet at this step (attempt N+1 before restore)
        <Empty>
          Session <span className="mono">{selected}</span> does not exist at step {sessions.data.step}.
        </Empty>
      ) : (
        <Empty>Select a session to see its state at this step beside its prepare snapshot.</Empty>
      )}
    </div>
  )
}

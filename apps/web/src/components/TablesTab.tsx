import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { tablesQuery } from '../api/queries.ts'
import { useWorkplaceSessions } from '../api/useWorkplaceSessions.ts'
import { Empty } from './Empty.tsx'
import { ErrorNotice } from './ErrorNotice.tsx'
import { Loading } from './Loading.tsx'
import { TableDiff } from './TableDiff.tsx'

/**
 * The Tables tab: a Workplace session's six mutable tables at this step, diffed against its prepare
 * snapshot (or the base tables before prepare: the baseline is named), each changed row linked to
 * the step of the request that changed it. Without a selected Workplace session it opens the first
 * one. The sessions to choose from are the step's Workplace sessions (`useWorkplaceSessions`).
 */
export function TablesTab({
  runId,
  step,
  selected,
  onSelect,
  onSeek,
}: {
  runId: string
  step: number
  selected: string | null
  onSelect: (key: string) => void
  /** Goes to a step (a changed row's request). */
  onSeek?: (step: number) => void
}) {
  const sessions = useWorkplaceSessions(runId, step)
  const workplace = sessions.data?.sessions ?? []
  const chosen = workplace.find((s) => s.key === selected)?.key ?? workplace[0]?.key ?? null
  const [changedOnly, setChangedOnly] = useState(true)
  const tables = useQuery({
    ...tablesQuery(runId, chosen ?? '', step),
    enabled: chosen !== null,
    placeholderData: (previous) => (previous?.session === chosen ? previous : undefined),
  })

  return (
    <div className="tables-view" data-testid="tables-view">
      <div className="table-tools">
        <label>
          Workplace session{' '}
          <select
            value={chosen ?? ''}
            onChange={(event) => onSelect(event.currentTarget.value)}
            disabled={workplace.length === 0}
          >
            {workplace.map((s) => (
              <option key={s.key} value={s.key}>
                {s.key} — {s.state}
              </option>
            ))}
          </select>
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={!changedOnly}
            onChange={(event) => setChangedOnly(!event.currentTarget.checked)}
          />{' '}
          Show all rows
        </label>
        {tables.status === 'success' && (
          <span className="muted" aria-live="polite">
            vs {tables.data.baseline === 'prepare' ? 'prepare snapshot' : 'base tables'}: +
            {tables.data.summary.added} added, ~{tables.data.summary.changed} changed, −
            {tables.data.summary.removed} removed
          </span>
        )}
      </div>
      {sessions.status === 'pending' ? (
        <Loading what="the sessions" minHeight={240} />
      ) : sessions.status === 'error' ? (
        <ErrorNotice
          what={`load the sessions at step ${step}`}
          error={sessions.error}
          onRetry={() => void sessions.refetch()}
        />
      ) : chosen === null ? (
        <Empty>
          No Workplace session at this step. Runs deal rollouts round-robin (blackjack, counter,
          workplace): a run needs 3 or more rollouts.
        </Empty>
      ) : tables.status === 'pending' ? (
        <Loading what={`the tables of ${chosen}`} minHeight={240} />
      ) : tables.status === 'error' ? (
        <ErrorNotice
          what={`load the tables of ${chosen}`}
          error={tables.error}
          onRetry={() => void tables.refetch()}
        />
      ) : (
        <div className="table-list">
          {tables.data.tables.map((table) => (
            <TableDiff
              key={table.name}
              table={table}
              changedOnly={changedOnly}
              baseline={tables.data.baseline === 'prepare' ? 'prepare' : 'the base tables'}
              changedAt={tables.data.changed_at?.[table.name]}
              onSeek={onSeek}
            />
          ))}
        </div>
      )}
    </div>
  )
}

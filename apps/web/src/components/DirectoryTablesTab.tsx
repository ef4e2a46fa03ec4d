import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { DirectoryRunView } from '@cutover/core/contracts'
import { directoryTablesQuery } from '../api/directoryQueries.ts'
import { Empty } from './Empty.tsx'
import { ErrorNotice } from './ErrorNotice.tsx'
import { Loading } from './Loading.tsx'
import { TableDiff } from './TableDiff.tsx'

/**
 * A Workplace snapshot's tables as a restore would rebuild them, diffed against the base tables.
 */
export function DirectoryTablesTab({
  run,
  selected,
  onSelect,
}: {
  run: DirectoryRunView
  selected: string | null
  onSelect: (key: string) => void
}) {
  const workplace = run.sessions.filter((s) => s.row.environment === 'workplace')
  const chosen =
    workplace.find((s) => s.row.key === selected)?.row.key ?? workplace[0]?.row.key ?? null
  const [changedOnly, setChangedOnly] = useState(true)
  const damaged = workplace.find((s) => s.row.key === chosen && s.detail.kind === 'unreadable')
  const tables = useQuery({
    ...directoryTablesQuery(run.id, chosen ?? ''),
    enabled: chosen !== null && damaged === undefined,
  })
  return (
    <div className="tables-view" data-testid="tables-view">
      <div className="table-tools">
        <label>
          Workplace session{' '}
          <select
            value={chosen ?? ''}
            onChange={(e) => onSelect(e.currentTarget.value)}
            disabled={workplace.length === 0}
          >
            {workplace.map((s) => (
              <option key={s.row.key} value={s.row.key}>
                {s.row.key} — {s.problem ? `✗ ${s.problem.code} (${s.file})` : s.row.summary}
              </option>
            ))}
          </select>
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={changedOnly}
            onChange={(e) => setChangedOnly(e.currentTarget.checked)}
          />{' '}
          Changed rows only
        </label>
        <span className="muted small">baseline: the pristine base tables</span>
      </div>
      {chosen === null ? (
        <Empty>This directory holds no readable Workplace snapshot.</Empty>
      ) : damaged ? (
        <p className="notice notice-error" data-testid="session-problem">
          <code className="error-code">{damaged.problem?.code}</code>{' '}
          <span className="mono">{damaged.file}</span>: {damaged.problem?.message} — its tables
          cannot be rebuilt.
        </p>
      ) : tables.status === 'pending' ? (
        <Loading what={`the tables of ${chosen}`} minHeight={240} />
      ) : tables.status === 'error' ? (
        <ErrorNotice what={`decode the tables of ${chosen}`} error={tables.error} />
      ) : (
        tables.data.tables.map((t) => (
          <TableDiff key={t.name} table={t} changedOnly={changedOnly} baseline="the base tables" />
        ))
      )}
    </div>
  )
}

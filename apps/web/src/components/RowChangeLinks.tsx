import { useQuery } from '@tanstack/react-query'
import { tablesQuery } from '../api/queries.ts'

/**
 * A Workplace session's changed table rows in one line each — table, row, and a link to the step of
 * the request that changed it — with the baseline they differ from named, as in the Tables tab.
 */
export function RowChangeLinks({
  runId,
  sessionKey,
  step,
  onSeek,
}: {
  runId: string
  sessionKey: string
  step: number
  onSeek: (step: number) => void
}) {
  const tables = useQuery(tablesQuery(runId, sessionKey, step))
  if (tables.status !== 'success') return null
  const { baseline, changed_at: changedAt = {} } = tables.data
  const rows = tables.data.tables.flatMap((table) => [
    ...table.rows
      .filter((r) => r.status !== 'same')
      .map((r) => ({ table: table.name, label: r.label, status: r.status as string })),
    ...table.removed.map((r) => ({ table: table.name, label: r.label, status: 'removed' })),
  ])
  const against = baseline === 'prepare' ? 'the prepare snapshot' : 'the base tables'
  return (
    <div className="row-changes small" data-testid="row-changes">
      {rows.length === 0 ? (
        <span className="muted">Tables: no row differs from {against}.</span>
      ) : (
        <>
          <span className="muted">
            Tables: {rows.length} row{rows.length === 1 ? '' : 's'} differ from {against}:
          </span>
          <ul className="inline-list">
            {rows.map((r) => {
              const at = changedAt[r.table]?.[String(r.label)]
              return (
                <li key={`${r.table}-${r.label}`}>
                  <span className="mono">
                    {r.table} #{r.label}
                  </span>{' '}
                  {r.status}
                  {at !== undefined && (
                    <>
                      {' '}
                      <button
                        type="button"
                        className="link-button"
                        data-testid="row-changed-at"
                        onClick={() => onSeek(at)}
                        title={`Go to step ${at}: the request that changed this row`}
                      >
                        at step {at}
                      </button>
                    </>
                  )}
                </li>
              )
            })}
          </ul>
        </>
      )}
    </div>
  )
}

import type { JsonValue, TableView } from '@cutover/core/contracts'

const cellText = (value: JsonValue | undefined) =>
  value === null || value === undefined
    ? ''
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value)

/**
 * One Workplace table diffed against prepare: added rows, changed cells and removed rows struck
 * through (the API marks which cells changed, by column index); a changed row links to the step of
 * the request that changed it. With `changedOnly`, rows equal to the baseline are left out.
 */
export function TableDiff({
  table,
  changedOnly,
  baseline = 'prepare',
  changedAt = {},
  onSeek,
}: {
  table: TableView
  changedOnly: boolean
  baseline?: 'prepare' | 'the base tables'
  /** Row label → the step of the request that last changed the row (the API's `changed_at`). */
  changedAt?: { readonly [label: string]: number }
  /** Goes to a step: a changed row's link to its request. */
  onSeek?: (step: number) => void
}) {
  const rows = changedOnly ? table.rows.filter((r) => r.status !== 'same') : table.rows
  const counts = {
    added: table.rows.filter((r) => r.status === 'added').length,
    changed: table.rows.filter((r) => r.status === 'changed').length,
    removed: table.removed.length,
  }
  const untouched = counts.added + counts.changed + counts.removed === 0
  return (
    <section className="table-diff" aria-label={`Table ${table.name}`} data-table={table.name}>
      <h4>
        <span className="mono">{table.name}</span>{' '}
        <span className="muted">
          {table.rows.length} rows
          {untouched
            ? ` · unchanged since ${baseline}`
            : ` · +${counts.added} added · ~${counts.changed} changed · −${counts.removed} removed`}
        </span>
      </h4>
      {rows.length === 0 && table.removed.length === 0 ? null : (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col" className="num">
                  #
                </th>
                {table.columns.map((c) => (
                  <th scope="col" key={c}>
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={`r${row.label}`} className={`row-${row.status}`} data-status={row.status}>
                  <th scope="row" className="num" title={row.status}>
                    {row.status === 'added' ? '+' : row.status === 'changed' ? '~' : ''}
                    {row.label}
                    <ChangedBy step={changedAt[String(row.label)]} onSeek={onSeek} />
                  </th>
                  {row.cells.map((cell, i) => {
                    const changed = row.changed.includes(i)
                    const was = changed && row.status === 'changed' ? row.was?.[i] : undefined
                    return (
                      <td
                        key={i}
                        className={changed ? 'cell-changed' : undefined}
                        data-changed={changed || undefined}
                      >
                        {was !== undefined && (
                          <>
                            <del className="cell-was" title={`was ${cellText(was)} at ${baseline}`}>
                              {cellText(was)}
                            </del>{' '}
                            <span aria-hidden="true">→</span>{' '}
                          </>
                        )}
                        {cellText(cell)}
                      </td>
                    )
                  })}
                </tr>
              ))}
              {table.removed.map((row) => (
                <tr key={`x${row.label}`} className="row-removed" data-status="removed">
                  <th scope="row" className="num" title="removed">
                    −{row.label}
                    <ChangedBy step={changedAt[String(row.label)]} onSeek={onSeek} />
                  </th>
                  {row.cells.map((cell, i) => (
                    <td key={i}>
                      <del>{cellText(cell)}</del>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}

/** The link from a changed row to the step of the request that changed it. */
function ChangedBy({
  step,
  onSeek,
}: {
  step: number | undefined
  onSeek: ((step: number) => void) | undefined
}) {
  if (step === undefined) return null
  return (
    <button
      type="button"
      className="link-button changed-by"
      data-testid="row-changed-at"
      title={`Go to step ${step}: the request that changed this row`}
      disabled={!onSeek}
      onClick={() => onSeek?.(step)}
    >
      step {step}
    </button>
  )
}

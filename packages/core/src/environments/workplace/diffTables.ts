import type { TableView } from '../../contracts/views.ts'
import type { Table } from './Table.ts'

const sameCell = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b)

/**
 * Each current table against its prepare (or base) counterpart, row by row by label
 * (duplicate labels pair up in order): `added` rows have a label the baseline lacks, `changed`
 * rows list the differing columns, `removed` holds baseline rows whose label is gone. Pure.
 */
export function diffTables(
  prepare: { readonly [name: string]: Table },
  current: { readonly [name: string]: Table },
): TableView[] {
  return Object.entries(current).map(([name, table]) => {
    const before = prepare[name] ?? { columns: table.columns, labels: [], rows: [] }
    const byLabel = new Map<number, number[]>()
    before.labels.forEach((label, i) => {
      const q = byLabel.get(label)
      if (q) q.push(i)
      else byLabel.set(label, [i])
    })
    const rows = table.rows.map((cells, i) => {
      const label = table.labels[i] as number
      const match = byLabel.get(label)?.shift()
      if (match === undefined)
        return {
          label,
          cells: [...cells],
          status: 'added' as const,
          changed: cells.map((_, c) => c),
        }
      const old = before.rows[match] ?? []
      const changed = table.columns.flatMap((column, c) => {
        const oc = before.columns.indexOf(column)
        return sameCell(cells[c] ?? null, oc < 0 ? undefined : (old[oc] ?? null)) ? [] : [c]
      })
      return {
        label,
        cells: [...cells],
        status: changed.length > 0 ? ('changed' as const) : ('same' as const),
        changed,
      }
    })
    const removed = [...byLabel.values()]
      .flat()
      .sort((a, b) => a - b)
      .map((i) => ({ label: before.labels[i] as number, cells: [...(before.rows[i] ?? [])] }))
    return { name, columns: [...table.columns], rows, removed }
  })
}

/** Totals over a diff: rows added, removed and changed. */
export function diffSummary(views: readonly TableView[]): {
  added: number
  removed: number
  changed: number
} {
  let added = 0
  let changed = 0
  let removed = 0
  for (const v of views) {
    removed += v.removed.length
    for (const r of v.rows) {
      if (r.status === 'added') added++
      else if (r.status === 'changed') changed++
    }
  }
  return { added, removed, changed }
}

import type { TableView } from '../contracts/views.ts'
import type { Row, Table } from '../environments/workplace/Table.ts'

const sameCell = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b)
const NO_CHANGE: readonly number[] = []

/**
 * The Tables view's diff: the same result as `diffTables` (rows paired by label, duplicate labels
 * in order; changed columns by name; removed baseline rows) built for large, copy-on-write tables:
 * equal label lists pair rows by position, a row shared by identity is `same` without comparing
 * cells, column positions are looked up once per table, and rows are shared, not copied (they are
 * immutable).
 */
export function diffSessionTables(prepare: { readonly [name: string]: Table }, current: { readonly [name: string]: Table }): TableView[] {
  return Object.entries(current).map(([name, table]) => {
    const before = prepare[name] ?? { columns: table.columns, labels: [], rows: [] }
    const columns = table.columns.map((column) => before.columns.indexOf(column))
    const aligned = columns.every((oc, c) => oc === c)
    const diffRow = (label: number, cells: Row, old: Row): TableView['rows'][number] => {
      if (cells === old && aligned) return { label, cells, status: 'same', changed: NO_CHANGE }
      const changed: number[] = []
      for (let c = 0; c < columns.length; c++) {
        const oc = columns[c] as number
        if (!sameCell(cells[c] ?? null, oc < 0 ? undefined : (old[oc] ?? null))) changed.push(c)
      }
      return { label, cells, status: changed.length > 0 ? 'changed' : 'same', changed }
    }
    if (before.labels === table.labels || sameLabels(before.labels, table.labels)) {
      const rows = table.rows.map((cells, i) => diffRow(table.labels[i] as number, cells, before.rows[i] ?? []))
      return { name, columns: table.columns, rows, removed: [] }
    }
    const byLabel = new Map<number, number[]>()
    before.labels.forEach((label, i) => {
      const q = byLabel.get(label)
      if (q) q.push(i)
      else byLabel.set(label, [i])
    })
    const rows = table.rows.map((cells, i) => {
      const label = table.labels[i] as number
      const match = byLabel.get(label)?.shift()
      if (match === undefined) return { label, cells, status: 'added' as const, changed: cells.map((_, c) => c) }
      return diffRow(label, cells, before.rows[match] ?? [])
    })
    const removed = [...byLabel.values()]
      .flat()
      .sort((a, b) => a - b)
      .map((i) => ({ label: before.labels[i] as number, cells: before.rows[i] ?? [] }))
    return { name, columns: table.columns, rows, removed }
  })
}

function sameLabels(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

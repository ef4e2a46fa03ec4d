import type { TableView } from '../../contracts/views.ts'
import type { JsonValue } from '../../json.ts'
import type { Row, Table } from './Table.ts'

const sameCell = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b)
const NO_CHANGE: readonly number[] = []

/**
 * Each current table against its prepare (or base) counterpart, row by row by label (duplicate
 * labels pair up in order): `added` rows have a label the baseline lacks, `changed` rows list the
 * columns (matched by name) whose cells differ, `removed` holds baseline rows whose label is gone.
 * Built for large copy-on-write tables: equal label lists pair rows by position, a row shared by
 * identity is `same` without comparing cells, and rows are shared, not copied (they are immutable).
 * Pure.
 */
export function diffTables(
  prepare: { readonly [name: string]: Table },
  current: { readonly [name: string]: Table },
): TableView[] {
  return Object.entries(current).map(([name, table]) => {
    const before = prepare[name] ?? { columns: table.columns, labels: [], rows: [] }
    const columns = table.columns.map((column) => before.columns.indexOf(column))
    const aligned = columns.every((oc, c) => oc === c)
    const diffRow = (label: number, cells: Row, old: Row): TableView['rows'][number] => {
      if (cells === old && aligned) return { label, cells, status: 'same', changed: NO_CHANGE }
      const changed: number[] = []
      const was: (JsonValue | null)[] = []
      for (let c = 0; c < columns.length; c++) {
        const oc = columns[c] as number
        const previous = oc < 0 ? undefined : (old[oc] ?? null)
        if (!sameCell(cells[c] ?? null, previous)) changed.push(c)
        was.push(previous === undefined ? null : previous)
      }
      return changed.length > 0
        ? { label, cells, status: 'changed', changed, was }
        : { label, cells, status: 'same', changed }
    }
    if (before.labels === table.labels || sameLabels(before.labels, table.labels)) {
      const rows = table.rows.map((cells, i) =>
        diffRow(table.labels[i] as number, cells, before.rows[i] ?? []),
      )
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
      if (match === undefined)
        return { label, cells, status: 'added' as const, changed: cells.map((_, c) => c) }
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

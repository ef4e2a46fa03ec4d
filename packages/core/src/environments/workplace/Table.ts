import type { JsonValue } from '../../json.ts'

/** One cell: a CSV string, null for pandas NaN, or whatever JSON value a tool stored as given. */
export type Cell = JsonValue

/** One row's cells in column order. Rows are immutable and shared between sessions. */
export type Row = readonly Cell[]

/**
 * A pandas DataFrame as plain immutable data: columns, the row-index labels (they matter for
 * grading, docs/environments.md §4.3/§4.5) and rows. Tools never mutate a Table; they build a new
 * one that shares the unchanged rows (copy-on-write), so base tables are shared safely.
 */
export interface Table {
  readonly columns: readonly string[]
  readonly labels: readonly number[]
  readonly rows: readonly Row[]
}

/** A table's rows as `to_dict(orient="records")`: objects in column order. */
export function toRecords(
  table: Table,
  rows: readonly Row[] = table.rows,
): { [k: string]: JsonValue }[] {
  return rows.map((row) => toRecord(table.columns, row))
}

/** One row as a record in column order. */
export function toRecord(columns: readonly string[], row: Row): { [k: string]: JsonValue } {
  const out: { [k: string]: JsonValue } = {}
  columns.forEach((c, i) => {
    out[c] = row[i] ?? null
  })
  return out
}

/** The index of a column, or -1. */
export function columnIndex(table: Table, column: string): number {
  return table.columns.indexOf(column)
}

/** `df[mask]`: keeps the rows (and their labels) where keep is true. */
export function filterRows(table: Table, keep: (row: Row, position: number) => boolean): Table {
  const labels: number[] = []
  const rows: Row[] = []
  table.rows.forEach((row, i) => {
    if (keep(row, i)) {
      rows.push(row)
      labels.push(table.labels[i] as number)
    }
  })
  return { columns: table.columns, labels, rows }
}

/** `pd.concat([df, new], ignore_index=True)`: appends and relabels the whole table 0..n-1. */
export function appendRelabel(table: Table, row: Row): Table {
  const rows = [...table.rows, row]
  return { columns: table.columns, labels: rows.map((_, i) => i), rows }
}

/** `pd.concat([df, new])` without ignore_index: the new row gets label 0 (a duplicate). */
export function appendLabelZero(table: Table, row: Row): Table {
  return { columns: table.columns, labels: [...table.labels, 0], rows: [...table.rows, row] }
}

/** `df.loc[len(df)] = row`: the new label is the length before the append. */
export function appendAtLength(table: Table, row: Row): Table {
  return {
    columns: table.columns,
    labels: [...table.labels, table.rows.length],
    rows: [...table.rows, row],
  }
}

/** `df.loc[mask, column] = value`: sets the cell in every matching row, labels kept. */
export function setWhere(
  table: Table,
  match: (row: Row) => boolean,
  column: number,
  value: Cell,
): Table {
  return {
    columns: table.columns,
    labels: table.labels,
    rows: table.rows.map((row) => {
      if (!match(row)) return row
      const next = [...row]
      next[column] = value
      return next
    }),
  }
}

/** The column's cells in row order. */
export function columnValues(table: Table, column: string): Cell[] {
  const i = table.columns.indexOf(column)
  return table.rows.map((r) => r[i] ?? null)
}

import type { JsonValue } from '../../json.ts'
import { pySearch } from './pyRegex.ts'
import { PyError } from './python.ts'
import type { Table } from './Table.ts'

/**
 * `Series.str.contains(pattern, case=False)`: true/false per string cell, null (NaN) for
 * missing or non-string cells, or `na` in their place when given.
 */
export function containsMask(
  table: Table,
  column: string,
  pattern: JsonValue | undefined,
  na?: boolean,
): (boolean | null)[] {
  const i = table.columns.indexOf(column)
  return table.rows.map((row) => {
    const v = row[i]
    if (typeof v !== 'string') return na ?? null
    return pySearch(pattern, v)
  })
}

/** `df[mask]`: pandas refuses a mask holding NaN. */
export function applyMask(table: Table, mask: readonly (boolean | null)[]): Table {
  if (mask.some((m) => m === null))
    throw new PyError('ValueError', 'Cannot mask with non-boolean array containing NA / NaN values')
  const labels: number[] = []
  const rows: Table['rows'][number][] = []
  table.rows.forEach((row, i) => {
    if (mask[i]) {
      rows.push(row)
      labels.push(table.labels[i] as number)
    }
  })
  return { columns: table.columns, labels, rows }
}

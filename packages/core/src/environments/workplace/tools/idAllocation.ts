import { PyError, pyInt, pyTypeName } from '../python.ts'
import type { Table } from '../Table.ts'

/**
 * `str(int(df[col].max()) + 1).zfill(8)`: the next id after the lexicographic maximum. An empty
 * table's max is NaN, so int() raises as it does in pandas.
 */
export function nextPaddedId(table: Table, column: string): string {
  const i = table.columns.indexOf(column)
  let max: string | undefined
  for (const r of table.rows) {
    const v = r[i]
    if (v === null || v === undefined) continue
    if (typeof v !== 'string')
      throw new PyError(
        'TypeError',
        `'>=' not supported between instances of '${pyTypeName(v)}' and 'str'`,
      )
    if (max === undefined || v > max) max = v
  }
  if (max === undefined) throw new PyError('ValueError', 'cannot convert float NaN to integer')
  return String(pyInt(max) + 1).padStart(8, '0')
}

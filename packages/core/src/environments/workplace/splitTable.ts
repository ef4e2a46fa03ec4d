import type { JsonValue } from '../../json.ts'
import type { Table } from './Table.ts'

/** A table in pandas `orient="split"` shape. */
export interface SplitTable {
  readonly columns: readonly string[]
  readonly index: readonly number[]
  readonly data: readonly (readonly JsonValue[])[]
}

/** `DataFrame.to_json(orient="split")` as a JSON value (NaN as null). */
export function toSplit(table: Table): { columns: string[]; index: number[]; data: JsonValue[][] } {
  return {
    columns: [...table.columns],
    index: [...table.labels],
    data: table.rows.map((r) => [...r]),
  }
}

import type { Table } from '../environments/workplace/Table.ts'

const sameCell = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b)

/**
 * Rows added + removed + changed between `before` and `current`, counted exactly as `diffTables`
 * pairs them (by label, duplicate labels in order, cells compared by column name) but without
 * building the diff: a row shared by identity (tables are copy-on-write) is the same row, and
 * equal label arrays pair rows by position. A Sessions view sums this over every session's tables.
 */
export function changedRows(before: Table, current: Table): number {
  if (before === current) return 0
  // Where each current column sits in the baseline (by name, first match, as diffTables looks it
  // up).
  const columns = current.columns.map((column) => before.columns.indexOf(column))
  if (before.labels === current.labels || sameList(before.labels, current.labels)) {
    let n = 0
    for (let i = 0; i < current.rows.length; i++) {
      const row = current.rows[i] as Table['rows'][number]
      const old = before.rows[i] as Table['rows'][number]
      if (row !== old && rowDiffers(row, old, columns)) n++
    }
    return n
  }
  const byLabel = new Map<number, number[]>()
  before.labels.forEach((label, i) => {
    const q = byLabel.get(label)
    if (q) q.push(i)
    else byLabel.set(label, [i])
  })
  let n = 0
  let matched = 0
  for (let i = 0; i < current.rows.length; i++) {
    const match = byLabel.get(current.labels[i] as number)?.shift()
    if (match === undefined) {
      n++ // added
      continue
    }
    matched++
    const row = current.rows[i] as Table['rows'][number]
    const old = before.rows[match] ?? []
    if (row !== old && rowDiffers(row, old, columns)) n++
  }
  return n + (before.labels.length - matched) // removed: baseline rows never paired
}

function rowDiffers(
  row: Table['rows'][number],
  old: Table['rows'][number],
  columns: readonly number[],
): boolean {
  for (let c = 0; c < columns.length; c++) {
    const oc = columns[c] as number
    if (!sameCell(row[c] ?? null, oc < 0 ? undefined : (old[oc] ?? null))) return true
  }
  return false
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * `changedRows` against one fixed set of baseline tables, memoised per current Table object: a
 * tool call replaces only the tables it touches, so successive sessions share most tables and each
 * table is counted once for the whole run.
 */
export class ChangedRowCounter {
  readonly #before: { readonly [name: string]: Table }
  readonly #cache = new WeakMap<Table, number>()

  constructor(before: { readonly [name: string]: Table }) {
    this.#before = before
  }

  /**
   * Total rows added, removed or changed over `tables` (a table the baseline lacks counts all its
   * rows).
   */
  count(tables: { readonly [name: string]: Table }): number {
    let n = 0
    for (const name in tables) {
      const table = tables[name] as Table
      let c = this.#cache.get(table)
      if (c === undefined) {
        const before = this.#before[name]
        c = before === undefined ? table.rows.length : changedRows(before, table)
        this.#cache.set(table, c)
      }
      n += c
    }
    return n
  }
}

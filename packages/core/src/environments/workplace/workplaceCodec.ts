import type { CutoverError } from '../../contracts/errors.ts'
import { cutoverError } from '../../contracts/errors.ts'
import type { JsonValue } from '../../json.ts'
import type { Result } from '../../result.ts'
import { err, ok } from '../../result.ts'
import type { CheckpointCodec } from '../EnvironmentServer.ts'
import { jsonSafeCopy } from '../gymnasium/jsonSafeCopy.ts'
import { diffSummary, diffTables } from './diffTables.ts'
import type { Row, Table } from './Table.ts'
import { toSplit } from './splitTable.ts'
import type { SessionTableName, WorkplaceBase, WorkplaceSession } from './WorkplaceSession.ts'
import { SESSION_TABLES } from './WorkplaceSession.ts'

/** Version of both Workplace state forms. */
export const WORKPLACE_STATE_VERSION = 1

/**
 * Which form `exportState` writes. `delta` (default) records only what differs from the pristine
 * base tables, named by the base digest; `full` writes every session table (for a reader without
 * the base).
 */
export interface WorkplaceCodecOptions {
  readonly form?: 'delta' | 'full'
}

/**
 * One table's delta: label runs `[first, count]`, and row segments referencing base positions or
 * literal rows.
 */
interface TableDelta {
  readonly labels: [number, number][]
  readonly rows: ({ readonly base: [number, number] } | { readonly row: JsonValue[] })[]
}

const positionsByBase = new WeakMap<WorkplaceBase, Map<Row, number>[]>()

/** Base row object → base position, per session table (rows are shared by identity). */
function basePositions(base: WorkplaceBase): Map<Row, number>[] {
  let maps = positionsByBase.get(base)
  if (!maps) {
    maps = SESSION_TABLES.map((name) => new Map(base.tables[name].rows.map((r, i) => [r, i])))
    positionsByBase.set(base, maps)
  }
  return maps
}

const sameRow = (a: Row, b: Row) =>
  a.length === b.length &&
  a.every((c, i) => c === b[i] || JSON.stringify(c) === JSON.stringify(b[i]))

const positionsByContent = new WeakMap<Table, Map<string, number>>()

/**
 * The base position of a row that is not shared by identity (rebuilt from a full snapshot): the
 * base row after the previous match when equal (runs survive relabelling cheaply), else any base
 * row with the same cells.
 */
function matchBase(baseTable: Table, row: Row, previous: number | undefined): number | undefined {
  const next = previous === undefined ? undefined : baseTable.rows[previous + 1]
  if (next && sameRow(next, row)) return (previous as number) + 1
  let byContent = positionsByContent.get(baseTable)
  if (!byContent) {
    byContent = new Map()
    for (let i = baseTable.rows.length - 1; i >= 0; i--)
      byContent.set(JSON.stringify(baseTable.rows[i]), i)
    positionsByContent.set(baseTable, byContent)
  }
  return byContent.get(JSON.stringify(row))
}

function runs(values: readonly number[]): [number, number][] {
  const out: [number, number][] = []
  for (const v of values) {
    const last = out[out.length - 1]
    if (last && last[0] + last[1] === v) last[1]++
    else out.push([v, 1])
  }
  return out
}

function encodeDelta(baseTable: Table, positions: Map<Row, number>, table: Table): TableDelta {
  const segments: TableDelta['rows'] = []
  let previous: number | undefined
  table.rows.forEach((row) => {
    const p = positions.get(row) ?? matchBase(baseTable, row, previous)
    previous = p
    const last = segments[segments.length - 1]
    if (p === undefined) segments.push({ row: [...row] })
    else if (last && 'base' in last && last.base[0] + last.base[1] === p) last.base[1]++
    else segments.push({ base: [p, 1] })
  })
  return { labels: runs(table.labels), rows: segments }
}

function isNonNegInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0
}

function decodeDelta(
  baseTable: Table,
  delta: JsonValue | undefined,
  name: string,
): Result<Table, CutoverError> {
  const bad = (why: string) =>
    err(cutoverError('invalid_request', `workplace delta for ${name}: ${why}`))
  if (delta === null || typeof delta !== 'object' || Array.isArray(delta))
    return bad('expected {labels, rows}')
  const { labels: rawLabels, rows: rawRows } = delta
  if (!Array.isArray(rawLabels) || !Array.isArray(rawRows)) return bad('expected {labels, rows}')
  const labels: number[] = []
  for (const run of rawLabels) {
    if (
      !Array.isArray(run) ||
      run.length !== 2 ||
      !isNonNegInt(run[0]) ||
      !isNonNegInt(run[1]) ||
      run[1] === 0
    )
      return bad('label runs must be [first, count]')
    for (let k = 0; k < run[1]; k++) labels.push(run[0] + k)
  }
  const rows: Row[] = []
  for (const seg of rawRows) {
    if (seg === null || typeof seg !== 'object' || Array.isArray(seg))
      return bad('row segment must be {base} or {row}')
    const ref = seg['base']
    const literal = seg['row']
    if (Array.isArray(ref) && literal === undefined) {
      const [start, count] = ref
      if (
        ref.length !== 2 ||
        !isNonNegInt(start) ||
        !isNonNegInt(count) ||
        count === 0 ||
        start + count > baseTable.rows.length
      )
        return bad('base reference out of range')
      for (let k = 0; k < count; k++) rows.push(baseTable.rows[start + k] as Row)
    } else if (Array.isArray(literal) && ref === undefined) {
      if (literal.length !== baseTable.columns.length)
        return bad(`a row must have ${baseTable.columns.length} cells`)
      rows.push(literal)
    } else return bad('row segment must be {base} or {row}')
  }
  if (labels.length !== rows.length) return bad(`${labels.length} labels for ${rows.length} rows`)
  return ok({ columns: baseTable.columns, labels, rows })
}

function decodeFull(
  baseTable: Table,
  split: JsonValue | undefined,
  name: string,
): Result<Table, CutoverError> {
  const bad = (why: string) =>
    err(cutoverError('invalid_request', `workplace table ${name}: ${why}`))
  if (split === null || typeof split !== 'object' || Array.isArray(split))
    return bad('expected {columns, index, data}')
  const { columns, index, data } = split
  if (
    !Array.isArray(columns) ||
    columns.length !== baseTable.columns.length ||
    columns.some((c, i) => c !== baseTable.columns[i])
  )
    return bad(`columns must be ${JSON.stringify(baseTable.columns)}`)
  if (!Array.isArray(index) || !index.every(isNonNegInt))
    return bad('index must be non-negative integers')
  if (!Array.isArray(data) || data.length !== index.length)
    return bad('data must have one row per index label')
  const rows: Row[] = []
  let previous: number | undefined
  for (let i = 0; i < data.length; i++) {
    const cells = data[i]
    if (!Array.isArray(cells) || cells.length !== columns.length)
      return bad(`row ${i} must have ${columns.length} cells`)
    // Share the base row when unchanged, so later deltas stay small and memory is shared.
    previous = matchBase(baseTable, cells, previous)
    rows.push(previous === undefined ? cells : (baseTable.rows[previous] as Row))
  }
  return ok({ columns: baseTable.columns, labels: index as number[], rows })
}

/**
 * The Workplace Assistant codec (docs/protocol.md §7.2, §12.5). Exports a delta against the
 * pristine base tables (only label changes and non-base rows are written) or the full tables;
 * restores either form to tables identical to the live ones, labels and order included. A delta
 * names its base by digest and is refused against any other base.
 */
export function createWorkplaceCodec(
  base: WorkplaceBase,
  options: WorkplaceCodecOptions = {},
): CheckpointCodec<WorkplaceSession> {
  const form = options.form ?? 'delta'
  return {
    enabled: true,
    stateSchemaVersion: WORKPLACE_STATE_VERSION,
    exportState(session) {
      const tables: { [name: string]: JsonValue } = {}
      if (form === 'full') {
        for (const name of SESSION_TABLES) tables[name] = toSplit(session.tables[name])
        return jsonSafeCopy({
          form: 'full',
          version: WORKPLACE_STATE_VERSION,
          session_duration_float: session.sessionDurationFloat,
          tables,
        })
      }
      const maps = basePositions(base)
      SESSION_TABLES.forEach((name, k) => {
        const table = session.tables[name]
        if (table === base.tables[name]) return
        tables[name] = encodeDelta(
          base.tables[name],
          maps[k] as Map<Row, number>,
          table,
        ) as unknown as JsonValue
      })
      return jsonSafeCopy({
        form: 'delta',
        version: WORKPLACE_STATE_VERSION,
        base_digest: base.digest,
        session_duration_float: session.sessionDurationFloat,
        tables,
      })
    },
    restoreState(state) {
      const bad = (why: string) => err(cutoverError('invalid_request', `workplace state: ${why}`))
      if (state === null || typeof state !== 'object' || Array.isArray(state))
        return bad('expected an object')
      if (state['version'] !== WORKPLACE_STATE_VERSION)
        return bad(`unsupported version ${JSON.stringify(state['version'] ?? null)}`)
      if (typeof state['session_duration_float'] !== 'boolean')
        return bad('session_duration_float must be a boolean')
      const rawTables = state['tables']
      if (rawTables === null || typeof rawTables !== 'object' || Array.isArray(rawTables))
        return bad('tables must be an object')
      const unknown = Object.keys(rawTables).filter(
        (k) => !(SESSION_TABLES as readonly string[]).includes(k),
      )
      if (unknown.length > 0) return bad(`unknown tables ${unknown.join(', ')}`)
      if (state['form'] === 'delta' && state['base_digest'] !== base.digest) {
        return err(
          cutoverError(
            'unsafe_resources_restore',
            `workplace delta is against base ${String(state['base_digest'])}, this server has ${base.digest}`,
          ),
        )
      }
      if (state['form'] !== 'delta' && state['form'] !== 'full')
        return bad(`unknown form ${JSON.stringify(state['form'] ?? null)}`)
      const tables = {} as { [K in SessionTableName]: Table }
      for (const name of SESSION_TABLES) {
        const raw = rawTables[name]
        if (state['form'] === 'full' && raw === undefined) return bad(`missing table ${name}`)
        const decoded =
          raw === undefined
            ? ok(base.tables[name])
            : state['form'] === 'full'
              ? decodeFull(base.tables[name], raw, name)
              : decodeDelta(base.tables[name], raw, name)
        if (!decoded.ok) return decoded
        tables[name] = decoded.value
      }
      return ok({ tables, sessionDurationFloat: state['session_duration_float'] })
    },
    describe(session) {
      const { added, removed, changed } = diffSummary(diffTables(base.tables, session.tables))
      const n = added + removed + changed
      return `${n} row${n === 1 ? '' : 's'} changed`
    },
  }
}

import type { PyJson, PyType } from '@cutover/core'
import {
  PyFloat,
  PyInt,
  isPyDict,
  numberValue,
  pyAny,
  pyDict,
  pyFloat,
  pyFloatRepr,
  pyList,
  pyModel,
} from '@cutover/core'

const TASK_INDEX = '_ng_task_index'
const ROLLOUT_INDEX = '_ng_rollout_index'

/** `AggregateMetricsRequest`: the verify rows of a run. */
export const AGGREGATE_METRICS_REQUEST: PyType = pyModel('AggregateMetricsRequest', {
  verify_responses: { type: pyList(pyDict(pyAny)) },
})

type Row = { readonly [key: string]: PyJson }

/**
 * A numeric cell as pandas sees it: ints and floats as they are, booleans as 0/1; anything else is
 * no value.
 */
function numeric(value: PyJson | undefined): number | PyInt | undefined {
  if (typeof value === 'boolean') return value ? 1 : 0
  if (value instanceof PyInt) return value
  if (value instanceof PyFloat || typeof value === 'number') return numberValue(value)
  return undefined
}

/** numpy's pairwise summation (what pandas' `mean` adds with), so long columns round the same. */
function pairwiseSum(values: readonly number[], start = 0, n = values.length): number {
  if (n < 8) {
    let sum = 0
    for (let i = start; i < start + n; i++) sum += values[i] ?? 0
    return sum
  }
  if (n <= 128) {
    const r = [0, 1, 2, 3, 4, 5, 6, 7].map((k) => values[start + k] ?? 0)
    let i = 8
    for (; i < n - (n % 8); i += 8)
      for (let k = 0; k < 8; k++) r[k] = (r[k] ?? 0) + (values[start + i + k] ?? 0)
    let sum = r[0]! + r[1]! + (r[2]! + r[3]!) + (r[4]! + r[5]! + (r[6]! + r[7]!))
    for (; i < n; i++) sum += values[start + i] ?? 0
    return sum
  }
  const half = Math.floor(n / 2 / 8) * 8
  return pairwiseSum(values, start, half) + pairwiseSum(values, start + half, n - half)
}

/**
 * The numeric fields pandas aggregates for one verify row: its own and its `response.usage`'s
 * (booleans as 0/1).
 */
function numericFields(row: Row): [string, number | PyInt][] {
  const response = row['response']
  const usage = isPyDict(response) && isPyDict(response['usage']) ? response['usage'] : {}
  const merged: { [key: string]: PyJson } = { ...row, ...usage }
  const out: [string, number | PyInt][] = []
  for (const [key, value] of Object.entries(merged)) {
    const n = key === TASK_INDEX || key === ROLLOUT_INDEX ? undefined : numeric(value)
    if (n !== undefined) out.push([key, n])
  }
  return out
}

/**
 * pandas' mean, max, min, median and sample std of each column (in that order, floats), a value
 * that is NaN left out; when every std of the frame is NaN (one row), the columns without gaps
 * report a std of 0, as the reference's RewardProfiler fills them.
 */
function describe(
  rows: readonly (readonly [string, number | PyInt][])[],
  columns: readonly string[],
): { [key: string]: PyJson } {
  const stats = new Map<string, number[]>()
  for (const column of columns) {
    const values = rows.flatMap((r) =>
      r.filter(([k]) => k === column).map(([, v]) => (v instanceof PyInt ? Number(v.value) : v)),
    )
    stats.set(column, values)
  }
  const out: { [key: string]: PyJson } = {}
  const each = (name: string, f: (values: number[], column: string) => number | undefined) => {
    for (const [column, values] of stats) {
      const v = values.length === 0 ? undefined : f(values, column)
      if (v !== undefined && !Number.isNaN(v)) out[`${name}/${column}`] = pyFloat(v)
    }
  }
  const mean = (values: number[]) => pairwiseSum(values) / values.length
  const std = (v: number[]) =>
    v.length < 2
      ? Number.NaN
      : Math.sqrt(pairwiseSum(v.map((x) => (x - mean(v)) ** 2)) / (v.length - 1))
  const allStdNaN = [...stats.values()].every((v) => Number.isNaN(std(v)))
  each('mean', mean)
  each('max', (v) => Math.max(...v))
  each('min', (v) => Math.min(...v))
  each('median', (v) => {
    const s = [...v].sort((a, b) => a - b)
    const mid = Math.floor(s.length / 2)
    return s.length % 2 === 1 ? s[mid] : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2
  })
  each('std', (v) => (allStdNaN && v.length === rows.length ? 0 : std(v)))
  return out
}

/** Python's `str` of an index value (as in the `rollout_id` f-string). */
function pyStrOf(v: PyJson): string {
  if (v === null) return 'None'
  if (typeof v === 'boolean') return v ? 'True' : 'False'
  if (v instanceof PyFloat)
    return Number.isFinite(v.value)
      ? pyFloatRepr(v.value)
      : String(v.value).toLowerCase().replace('infinity', 'inf')
  if (typeof v === 'number' && !Number.isInteger(v)) return pyFloatRepr(v)
  return typeof v === 'string' || typeof v === 'number' || v instanceof PyInt
    ? String(v)
    : JSON.stringify(v)
}

/** Python's `repr` of an index value, as the reference's error messages print a key tuple. */
const pyReprOf = (v: PyJson): string => (typeof v === 'string' ? `'${v}'` : pyStrOf(v))

/** The sort key of an index value (ints and floats by value, anything else after). */
const indexOrder = (v: PyJson): number => numberValue(v) ?? Number.POSITIVE_INFINITY

const PY_TYPE: Record<string, string> = { string: 'str', number: 'float', boolean: 'bool' }
const pyTypeOf = (v: PyJson): string =>
  v === null
    ? 'NoneType'
    : Array.isArray(v)
      ? 'list'
      : typeof v === 'number' && Number.isInteger(v)
        ? 'int'
        : v instanceof PyInt
          ? 'int'
          : v instanceof PyFloat
            ? 'float'
            : (PY_TYPE[typeof v] ?? 'dict')

/**
 * A rollout's compact record: ids, its reward as given, then its usage and other numeric fields.
 */
function rolloutInfo(task: PyJson, rollout: PyJson, row: Row): PyJson {
  const info: { [key: string]: PyJson } = {
    rollout_id: `${pyStrOf(task)}:${pyStrOf(rollout)}`,
    [TASK_INDEX]: task,
    [ROLLOUT_INDEX]: rollout,
  }
  if (Object.hasOwn(row, 'reward')) info['reward'] = row['reward'] ?? null
  const response = row['response']
  const usage = isPyDict(response) && isPyDict(response['usage']) ? response['usage'] : {}
  for (const source of [usage, row]) {
    for (const [k, v] of Object.entries(source)) {
      if (
        source === row &&
        (k === TASK_INDEX || k === ROLLOUT_INDEX || k === 'reward' || k === 'response')
      )
        continue
      if (typeof v === 'boolean') info[k] = v ? 1 : 0
      else if (numeric(v) !== undefined) info[k] = v
    }
  }
  return info
}

/**
 * `POST /aggregate_metrics` over validated rows: Gym's reward profile per task
 * (`group_level_metrics`: the task's statistics, `sample`, rollout counts and completion, and each
 * rollout's record) and over every rollout (`agent_metrics`), with every `mean/*` of those as
 * `key_metrics`. A row without `_ng_task_index` (the rollout index defaults to 0), two rows with
 * the same (task, rollout) key, or a `response` that is not an object is the reference's 500 with
 * the exception's `repr`.
 */
export function aggregateMetrics(body: PyJson): { status: number; body: PyJson } {
  const rows = (
    isPyDict(body) && Array.isArray(body['verify_responses']) ? body['verify_responses'] : []
  ).filter(isPyDict)
  if (rows.length === 0)
    return { status: 200, body: { group_level_metrics: [], agent_metrics: {}, key_metrics: {} } }
  const keyText = (task: PyJson, rollout: PyJson) => `(${pyReprOf(task)}, ${pyReprOf(rollout)})`
  // The materialized input rows: each verify row's indices, 0 when absent.
  const inputs = new Set<string>()
  for (const row of rows) {
    const key = keyText(row[TASK_INDEX] ?? 0, row[ROLLOUT_INDEX] ?? 0)
    if (inputs.has(key))
      return {
        status: 500,
        body: `ValueError('Duplicate materialized input row for rollout key ${key}')`,
      }
    inputs.add(key)
  }
  // The results: the verify rows themselves, which must carry both indices.
  const results = new Set<string>()
  for (const row of rows) {
    for (const name of [TASK_INDEX, ROLLOUT_INDEX])
      if (row[name] === undefined) return { status: 500, body: `KeyError('${name}')` }
    const key = keyText(row[TASK_INDEX] ?? 0, row[ROLLOUT_INDEX] ?? 0)
    if (results.has(key))
      return { status: 500, body: `ValueError('Duplicate result row for rollout key ${key}')` }
    results.add(key)
  }
  // Profiled in rollout-key order: that order decides the column order and each task's rollouts.
  const sorted = [...rows].sort(
    (a, b) =>
      indexOrder(a[TASK_INDEX] ?? 0) - indexOrder(b[TASK_INDEX] ?? 0) ||
      indexOrder(a[ROLLOUT_INDEX] ?? 0) - indexOrder(b[ROLLOUT_INDEX] ?? 0),
  )
  for (const row of sorted) {
    const response = row['response']
    if (response !== undefined && !isPyDict(response))
      return {
        status: 500,
        body: `AttributeError("'${pyTypeOf(response)}' object has no attribute 'get'")`,
      }
  }
  const groups = new Map<string, { task: PyJson; rows: Row[] }>()
  for (const row of sorted) {
    const task = row[TASK_INDEX] ?? 0
    const group = groups.get(pyReprOf(task)) ?? { task, rows: [] }
    group.rows.push(row)
    groups.set(pyReprOf(task), group)
  }
  const fields = new Map(sorted.map((row) => [row, numericFields(row)]))
  const columns = [...new Set([...fields.values()].flatMap((f) => f.map(([k]) => k)))]
  const group_level_metrics: PyJson[] = [...groups.values()].map(({ task, rows: members }) => ({
    [TASK_INDEX]: task,
    ...describe(
      members.map((m) => fields.get(m) ?? []),
      columns,
    ),
    sample: { agent_ref: { name: 'agent' } },
    // Every verify row is both the expected and the completed rollout: the profile is complete.
    num_rollouts: members.length,
    expected_num_rollouts: members.length,
    missing_num_rollouts: 0,
    reward_profile_completion_pct: pyFloat(100),
    rollout_infos: members.map((row) => rolloutInfo(task, row[ROLLOUT_INDEX] ?? 0, row)),
  }))
  const agent_metrics = describe([...fields.values()], columns)
  const key_metrics: { [key: string]: PyJson } = {}
  for (const [k, v] of Object.entries(agent_metrics)) if (k.startsWith('mean/')) key_metrics[k] = v
  return { status: 200, body: { group_level_metrics, agent_metrics, key_metrics } }
}

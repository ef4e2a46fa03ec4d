import type { PyJson, PyType } from '@cutover/core'
import { PyFloat, PyInt, isPyDict, numberValue, pyAny, pyDict, pyFloat, pyList, pyModel } from '@cutover/core'

const TASK_INDEX = '_ng_task_index'
const ROLLOUT_INDEX = '_ng_rollout_index'

/** `AggregateMetricsRequest`: the verify rows of a run. */
export const AGGREGATE_METRICS_REQUEST: PyType = pyModel('AggregateMetricsRequest', { verify_responses: { type: pyList(pyDict(pyAny)) } })

type Row = { readonly [key: string]: PyJson }

/** A numeric cell as pandas sees it: ints and floats as they are, booleans as 0/1; anything else is no value. */
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
    for (; i < n - (n % 8); i += 8) for (let k = 0; k < 8; k++) r[k] = (r[k] ?? 0) + (values[start + i + k] ?? 0)
    let sum = ((r[0]! + r[1]!) + (r[2]! + r[3]!)) + ((r[4]! + r[5]!) + (r[6]! + r[7]!))
    for (; i < n; i++) sum += values[start + i] ?? 0
    return sum
  }
  const half = Math.floor(n / 2 / 8) * 8
  return pairwiseSum(values, start, half) + pairwiseSum(values, start + half, n - half)
}

/** Column names in order of first appearance (a DataFrame's columns), indices left out. */
function columnsOf(rows: readonly Row[]): string[] {
  const seen = new Set<string>()
  for (const row of rows) for (const key of Object.keys(row)) if (key !== TASK_INDEX && key !== ROLLOUT_INDEX && numeric(row[key]) !== undefined) seen.add(key)
  return [...seen]
}

/**
 * pandas' mean, max, min, median and sample std of each numeric column (in that order, floats);
 * a column without values is left out, and a std of fewer than two values (NaN) too.
 */
function describe(rows: readonly Row[], columns: readonly string[]): { [key: string]: PyJson } {
  const stats = new Map<string, number[]>()
  for (const column of columns) {
    const values = rows.map((r) => numeric(r[column])).filter((v) => v !== undefined).map((v) => (v instanceof PyInt ? Number(v.value) : v))
    if (values.length > 0) stats.set(column, values)
  }
  const out: { [key: string]: PyJson } = {}
  const each = (name: string, f: (values: number[]) => number | undefined) => {
    for (const [column, values] of stats) {
      const v = f(values)
      if (v !== undefined) out[`${name}/${column}`] = pyFloat(v)
    }
  }
  const mean = (values: number[]) => pairwiseSum(values) / values.length
  each('mean', mean)
  each('max', (v) => Math.max(...v))
  each('min', (v) => Math.min(...v))
  each('median', (v) => {
    const s = [...v].sort((a, b) => a - b)
    const mid = Math.floor(s.length / 2)
    return s.length % 2 === 1 ? s[mid] : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2
  })
  each('std', (v) => {
    if (v.length < 2) return undefined
    const m = mean(v)
    return Math.sqrt(pairwiseSum(v.map((x) => (x - m) ** 2)) / (v.length - 1))
  })
  return out
}

/** Python's `repr` of an index value inside the reference's error messages. */
const reprIndex = (v: PyJson): string => (typeof v === 'string' ? `'${v}'` : v instanceof PyFloat ? String(v.value) : String(v))

/** The sort key of an index value (ints and floats by value, anything else after). */
const indexOrder = (v: PyJson): number => numberValue(v) ?? Number.POSITIVE_INFINITY

/**
 * `POST /aggregate_metrics` over validated rows: Gym's reward profile per task
 * (`group_level_metrics`: the task's statistics, `sample`, rollout counts and completion, and each
 * rollout's numeric fields), the statistics over every rollout (`agent_metrics`) and every
 * `mean/*` of those as `key_metrics`. A row without `_ng_task_index`, or two rows with the same
 * (task, rollout) key, is the reference's 500 with the exception's `repr`.
 */
export function aggregateMetrics(body: PyJson): { status: number; body: PyJson } {
  const rows = (isPyDict(body) && Array.isArray(body['verify_responses']) ? body['verify_responses'] : []).filter(isPyDict)
  const groups = new Map<string, { task: PyJson; rows: { rollout: PyJson; row: Row }[] }>()
  const seen = new Set<string>()
  let expected = 0
  for (const row of rows) {
    const task = row[TASK_INDEX]
    if (task === undefined) return { status: 500, body: `KeyError('${TASK_INDEX}')` }
    const rollout = row[ROLLOUT_INDEX] ?? 0
    const key = `(${reprIndex(task)}, ${reprIndex(rollout)})`
    if (seen.has(key)) return { status: 500, body: `ValueError('Duplicate materialized input row for rollout key ${key}')` }
    seen.add(key)
    expected = Math.max(expected, indexOrder(rollout) + 1)
    const group = groups.get(reprIndex(task)) ?? { task, rows: [] }
    group.rows.push({ rollout, row })
    groups.set(reprIndex(task), group)
  }
  const columns = columnsOf(rows)
  const group_level_metrics: PyJson[] = [...groups.values()]
    .sort((a, b) => indexOrder(a.task) - indexOrder(b.task))
    .map(({ task, rows: members }) => {
      const sorted = [...members].sort((a, b) => indexOrder(a.rollout) - indexOrder(b.rollout))
      const rollout_infos: PyJson[] = sorted.map(({ rollout, row }) => {
        const info: { [key: string]: PyJson } = { rollout_id: `${reprIndex(task)}:${reprIndex(rollout)}`, [TASK_INDEX]: task, [ROLLOUT_INDEX]: rollout }
        for (const [k, v] of Object.entries(row)) {
          const n = k === TASK_INDEX || k === ROLLOUT_INDEX ? undefined : typeof v === 'boolean' ? (v ? 1 : 0) : numeric(v) === undefined ? undefined : v
          if (n !== undefined) info[k] = n
        }
        return info
      })
      const expectedHere = Number.isFinite(expected) ? expected : members.length
      return {
        [TASK_INDEX]: task,
        ...describe(sorted.map((m) => m.row), columns),
        sample: { agent_ref: { name: 'agent' } },
        num_rollouts: members.length,
        expected_num_rollouts: expectedHere,
        missing_num_rollouts: Math.max(0, expectedHere - members.length),
        reward_profile_completion_pct: pyFloat(expectedHere === 0 ? 100 : (100 * members.length) / expectedHere),
        rollout_infos,
      }
    })
  const agent_metrics = describe(rows, columns)
  const key_metrics: { [key: string]: PyJson } = {}
  for (const [k, v] of Object.entries(agent_metrics)) if (k.startsWith('mean/')) key_metrics[k] = v
  return { status: 200, body: { group_level_metrics, agent_metrics, key_metrics } }
}

import type { JsonValue } from '@cutover/core/contracts'

const TASK_INDEX = '_ng_task_index'
const ROLLOUT_INDEX = '_ng_rollout_index'

type Stats = Record<string, number>

/** pandas `describe`-style statistics (mean, max, min, median, sample std) of each numeric field. */
function describe(rows: readonly Record<string, JsonValue>[]): Stats {
  const columns = new Map<string, number[]>()
  for (const row of rows) {
    for (const [key, value] of Object.entries(row)) {
      if (key === TASK_INDEX || key === ROLLOUT_INDEX) continue
      const n = typeof value === 'boolean' ? Number(value) : typeof value === 'number' ? value : undefined
      if (n === undefined) continue
      const list = columns.get(key) ?? []
      list.push(n)
      columns.set(key, list)
    }
  }
  const out: Stats = {}
  for (const [key, values] of columns) {
    const sorted = [...values].sort((a, b) => a - b)
    const mean = values.reduce((s, v) => s + v, 0) / values.length
    const mid = Math.floor(sorted.length / 2)
    const median = sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
    // A single value has no sample std; Gym reports 0 rather than NaN there.
    const std = values.length < 2 ? 0 : Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1))
    out[`mean/${key}`] = mean
    out[`max/${key}`] = sorted[sorted.length - 1] ?? 0
    out[`min/${key}`] = sorted[0] ?? 0
    out[`median/${key}`] = median
    out[`std/${key}`] = std
  }
  return out
}

const isObject = (v: unknown): v is Record<string, JsonValue> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * `POST /aggregate_metrics` (`AggregateMetricsRequest{verify_responses}` → `AggregateMetrics`):
 * the RewardProfiler baseline statistics per task (`group_level_metrics`, grouped by
 * `_ng_task_index`) and over all rollouts (`agent_metrics`), with `mean/reward` as key metric.
 */
export function aggregateMetrics(body: unknown): { status: number; body: JsonValue } {
  const responses = isObject(body) ? body['verify_responses'] : undefined
  if (!Array.isArray(responses) || !responses.every(isObject)) {
    const input: JsonValue = isObject(body) ? (body['verify_responses'] ?? body) : null
    const missing = !isObject(body) || body['verify_responses'] === undefined
    return {
      status: 422,
      body: {
        detail: [
          missing
            ? { type: 'missing', loc: ['body', 'verify_responses'], msg: 'Field required', input }
            : { type: 'list_type', loc: ['body', 'verify_responses'], msg: 'Input should be a valid list', input },
        ],
      },
    }
  }
  const rows = responses as Record<string, JsonValue>[]
  const groups = new Map<string, Record<string, JsonValue>[]>()
  for (const row of rows) {
    const task = row[TASK_INDEX]
    if (typeof task !== 'number') continue
    const key = String(task)
    groups.set(key, [...(groups.get(key) ?? []), row])
  }
  const group_level_metrics: JsonValue[] = [...groups.entries()]
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([task, members]) => ({ [TASK_INDEX]: Number(task), ...describe(members) }))
  const agent_metrics = describe(rows)
  const key_metrics: Stats = {}
  if (agent_metrics['mean/reward'] !== undefined) key_metrics['mean/reward'] = agent_metrics['mean/reward']
  return { status: 200, body: { group_level_metrics, agent_metrics, key_metrics } }
}

import type { JsonValue } from '../../../json.ts'
import { asJsonValue, pyFloat } from '../../pyjson/pyValues.ts'
import { compareStr, pyStr, truthy } from '../python.ts'
import type { Row, Table } from '../Table.ts'
import { appendAtLength, toRecords } from '../Table.ts'
import type { ToolEnv } from '../WorkplaceSession.ts'
import type { ToolDef } from './ToolDef.ts'
import { tool } from './ToolDef.ts'

const VALUES = [
  'total_visits',
  'session_duration_seconds',
  'user_engaged',
  'visits_direct',
  'visits_referral',
  'visits_search_engine',
  'visits_social_media',
]
const PLOT_TYPES = ['bar', 'line', 'scatter', 'histogram']

/** `_analytics_data` as this session sees it (float durations after the in-place conversion). */
function analytics(env: ToolEnv): Table {
  return env.sessionDurationFloat ? env.base.analyticsFloat : env.base.tables.analytics_data
}

/** Rows with `time_min <= date_of_visit <= time_max`, compared as strings (bounds optional). */
function inRange(
  env: ToolEnv,
  a: { readonly [k: string]: JsonValue },
): { table: Table; rows: Row[] } {
  const table = analytics(env)
  const d = table.columns.indexOf('date_of_visit')
  let rows = [...table.rows]
  if (truthy(a['time_min']))
    rows = rows.filter((r) => compareStr(r[d] ?? null, a['time_min'] ?? null, '>='))
  if (truthy(a['time_max']))
    rows = rows.filter((r) => compareStr(r[d] ?? null, a['time_max'] ?? null, '<='))
  return { table, rows }
}

/** `groupby("date_of_visit")` then an aggregate: a dict keyed by date, ascending. */
function byDate(
  table: Table,
  rows: readonly Row[],
  aggregate: (group: readonly Row[]) => JsonValue,
): { [date: string]: JsonValue } {
  const d = table.columns.indexOf('date_of_visit')
  const groups = new Map<string, Row[]>()
  for (const r of rows) {
    const key = String(r[d])
    const g = groups.get(key)
    if (g) g.push(r)
    else groups.set(key, [r])
  }
  const out: { [date: string]: JsonValue } = {}
  for (const key of [...groups.keys()].sort()) out[key] = aggregate(groups.get(key) as Row[])
  return out
}

/** The six `AnalyticsTool` functions (docs/environments.md §4.4 analytics). */
export const analyticsTools: readonly ToolDef[] = [
  tool(
    'analytics_get_visitor_information_by_id',
    'AnalyticsTool.get_visitor_information_by_id',
    [['visitor_id', null]],
    (env, a) => {
      if (!truthy(a['visitor_id'])) return 'Visitor ID not provided.'
      const table = analytics(env)
      const rows = table.rows.filter((r) => r[1] === a['visitor_id'])
      if (rows.length === 0) return 'Visitor not found.'
      // After the in-place conversion the duration column holds Python floats (`4.0`).
      const duration = env.sessionDurationFloat ? 'session_duration_seconds' : undefined
      return toRecords(table, rows).map((record) => {
        const value = duration === undefined ? undefined : record[duration]
        return typeof value === 'number'
          ? { ...record, [duration as string]: asJsonValue(pyFloat(value)) }
          : record
      })
    },
  ),
  tool(
    'analytics_create_plot',
    'AnalyticsTool.create_plot',
    [
      ['time_min', null],
      ['time_max', null],
      ['value_to_plot', null],
      ['plot_type', null],
    ],
    (env, a) => {
      if (!truthy(a['time_min'])) return 'Start date not provided.'
      if (!truthy(a['time_max'])) return 'End date not provided.'
      if (typeof a['value_to_plot'] !== 'string' || !VALUES.includes(a['value_to_plot']))
        return `Value to plot must be one of ${VALUES.map((v) => `'${v}'`).join(', ')}`
      if (typeof a['plot_type'] !== 'string' || !PLOT_TYPES.includes(a['plot_type']))
        return "Plot type must be one of 'bar', 'line', 'scatter', or 'histogram'"
      const path = `plots/${pyStr(a['time_min'])}_${pyStr(a['time_max'])}_${a['value_to_plot']}_${a['plot_type']}.png`
      env.tables.plots_data = appendAtLength(env.tables.plots_data, [path])
      return path
    },
  ),
  tool(
    'analytics_total_visits_count',
    'AnalyticsTool.total_visits_count',
    [
      ['time_min', null],
      ['time_max', null],
    ],
    (env, a) => {
      const { table, rows } = inRange(env, a)
      return byDate(table, rows, (g) => g.length)
    },
  ),
  tool(
    'analytics_engaged_users_count',
    'AnalyticsTool.engaged_users_count',
    [
      ['time_min', null],
      ['time_max', null],
    ],
    (env, a) => {
      const { table, rows } = inRange(env, a)
      const e = table.columns.indexOf('user_engaged')
      return byDate(table, rows, (g) => g.filter((r) => r[e] === true).length)
    },
  ),
  tool(
    'analytics_traffic_source_count',
    'AnalyticsTool.traffic_source_count',
    [
      ['time_min', null],
      ['time_max', null],
      ['traffic_source', null],
    ],
    (env, a) => {
      const { table, rows } = inRange(env, a)
      const s = table.columns.indexOf('traffic_source')
      if (!truthy(a['traffic_source'])) return byDate(table, rows, (g) => g.length)
      return byDate(table, rows, (g) => g.filter((r) => r[s] === a['traffic_source']).length)
    },
  ),
  tool(
    'analytics_get_average_session_duration',
    'AnalyticsTool.get_average_session_duration',
    [
      ['time_min', null],
      ['time_max', null],
    ],
    (env, a) => {
      // Without bounds the reference converts the column to float in place (visible to later
      // calls).
      if (!truthy(a['time_min']) && !truthy(a['time_max'])) env.sessionDurationFloat = true
      const { table, rows } = inRange(env, a)
      const c = table.columns.indexOf('session_duration_seconds')
      return byDate(table, rows, (g) =>
        asJsonValue(
          pyFloat(g.reduce((sum, r) => sum + Number.parseFloat(String(r[c])), 0) / g.length),
        ),
      )
    },
  ),
]

import type { JsonValue } from '../../../json.ts'
import { containsMask } from '../contains.ts'
import { paginate } from '../paginate.ts'
import { PyError, pyInt, pyLower, truthy } from '../python.ts'
import { parseTimestamp } from '../pyTimestamp.ts'
import type { Row } from '../Table.ts'
import { appendLabelZero, filterRows, setWhere, toRecords } from '../Table.ts'
import type { ToolDef } from './ToolDef.ts'
import { tool } from './ToolDef.ts'
import { nextPaddedId } from './idAllocation.ts'

const ALL_FIELDS = ['event_id', 'event_name', 'participant_email', 'event_start', 'duration']
const UPDATABLE = ['event_name', 'participant_email', 'event_start', 'duration']
const BAD_ID = 'Invalid event ID format. Expected 8-digit ID.'
const validId = (id: JsonValue): boolean =>
  typeof id === 'string' && id.length === 8 && /^\d{8}$/.test(id)

/**
 * `pd.Timestamp(v)` succeeds (ValueError → false; other exceptions propagate, as the tool catches
 * only ValueError).
 */
function timestampOk(v: JsonValue): boolean {
  try {
    parseTimestamp(v)
    return true
  } catch (e) {
    if (e instanceof PyError && e.pyType === 'ValueError') return false
    throw e
  }
}

/** The duration checks of create/update: undefined when valid, else the message. */
function durationProblem(v: JsonValue): string | undefined {
  let n: number
  try {
    n = pyInt(v)
  } catch (e) {
    if (e instanceof PyError && e.pyType === 'ValueError')
      return 'Invalid duration format. Expected a number of minutes.'
    throw e
  }
  return n <= 0 ? 'Duration must be a positive number of minutes.' : undefined
}

/** The five `CalendarTool` functions (docs/environments.md §4.4 calendar). */
export const calendarTools: readonly ToolDef[] = [
  tool(
    'calendar_get_event_information_by_id',
    'CalendarTool.get_event_information_by_id',
    [
      ['event_id', null],
      ['field', null],
    ],
    (env, a) => {
      if (!truthy(a['event_id'])) return 'Event ID not provided.'
      if (!truthy(a['field'])) return 'Field not provided.'
      if (!validId(a['event_id'] ?? null)) return BAD_ID
      const field = a['field']
      if (typeof field !== 'string' || !ALL_FIELDS.includes(field))
        return `Invalid field. Available fields are: ${ALL_FIELDS.join(', ')}`
      const t = env.tables.calendar_events
      const row = t.rows.find((r) => r[0] === a['event_id'])
      if (!row) return 'Event not found.'
      const i = t.columns.indexOf(field)
      return i < 0 ? 'Field not found.' : { [field]: row[i] ?? null }
    },
  ),
  tool(
    'calendar_search_events',
    'CalendarTool.search_events',
    [
      ['query', ''],
      ['time_min', null],
      ['time_max', null],
      ['page', 1],
      ['page_size', 5],
    ],
    (env, a) => {
      let min: bigint | undefined
      let max: bigint | undefined
      if (truthy(a['time_min'])) {
        if (!timestampOk(a['time_min'] ?? null))
          return 'Invalid time_min format. Expected YYYY-MM-DD HH:MM:SS.'
        min = parseTimestamp(a['time_min']).ns
      }
      if (truthy(a['time_max'])) {
        if (!timestampOk(a['time_max'] ?? null))
          return 'Invalid time_max format. Expected YYYY-MM-DD HH:MM:SS.'
        max = parseTimestamp(a['time_max']).ns
      }
      const t = env.tables.calendar_events
      const byName = containsMask(t, 'event_name', a['query'], false)
      const byEmail = containsMask(t, 'participant_email', a['query'], false)
      const start = t.columns.indexOf('event_start')
      let rows: Row[] = t.rows.filter((_, i) => byName[i] === true || byEmail[i] === true)
      const ts = (r: Row) => parseTimestamp(r[start] ?? null).ns
      if (min !== undefined) rows = rows.filter((r) => ts(r) >= (min as bigint))
      if (max !== undefined) rows = rows.filter((r) => ts(r) <= (max as bigint))
      if (rows.length === 0) return 'No events found.'
      // list.sort(reverse=True) is stable: ties keep their original order.
      const sorted = rows
        .map((r, i) => ({ r, i, k: ts(r) }))
        .sort((x, y) => (x.k < y.k ? 1 : x.k > y.k ? -1 : x.i - y.i))
        .map((x) => x.r)
      const p = paginate(sorted, a['page'], a['page_size'])
      return {
        events: toRecords(t, p.items),
        pagination: {
          total_events: sorted.length,
          page: p.page,
          page_size: p.pageSize,
          total_pages: p.totalPages,
        },
      }
    },
  ),
  tool(
    'calendar_create_event',
    'CalendarTool.create_event',
    [
      ['event_name', null],
      ['participant_email', null],
      ['event_start', null],
      ['duration', null],
    ],
    (env, a) => {
      if (!truthy(a['event_name'])) return 'Event name not provided.'
      if (!truthy(a['participant_email'])) return 'Participant email not provided.'
      if (!truthy(a['event_start'])) return 'Event start not provided.'
      if (!truthy(a['duration'])) return 'Event duration not provided.'
      if (!timestampOk(a['event_start'] ?? null))
        return 'Invalid event_start format. Expected YYYY-MM-DD HH:MM:SS.'
      const problem = durationProblem(a['duration'] ?? null)
      if (problem) return problem
      const email = pyLower(a['participant_email'])
      const t = env.tables.calendar_events
      const id = nextPaddedId(t, 'event_id')
      // pd.concat without ignore_index: the new row's label is 0 (a duplicate label).
      env.tables.calendar_events = appendLabelZero(t, [
        id,
        a['event_name'] ?? null,
        email,
        a['event_start'] ?? null,
        a['duration'] ?? null,
      ])
      return id
    },
  ),
  tool('calendar_delete_event', 'CalendarTool.delete_event', [['event_id', null]], (env, a) => {
    if (!truthy(a['event_id'])) return 'Event ID not provided.'
    if (!validId(a['event_id'] ?? null)) return BAD_ID
    const t = env.tables.calendar_events
    if (!t.rows.some((r) => r[0] === a['event_id'])) return 'Event not found.'
    env.tables.calendar_events = filterRows(t, (r) => r[0] !== a['event_id'])
    return 'Event deleted successfully.'
  }),
  tool(
    'calendar_update_event',
    'CalendarTool.update_event',
    [
      ['event_id', null],
      ['field', null],
      ['new_value', null],
    ],
    (env, a) => {
      if (!truthy(a['event_id']) || !truthy(a['field']) || !truthy(a['new_value']))
        return 'Event ID, field, or new value not provided.'
      if (!validId(a['event_id'] ?? null)) return BAD_ID
      const field = a['field']
      if (typeof field !== 'string' || !UPDATABLE.includes(field))
        return `Invalid field. Available fields are: ${UPDATABLE.join(', ')}`
      let value = a['new_value'] ?? null
      if (field === 'event_start' && !timestampOk(value))
        return 'Invalid event_start format. Expected YYYY-MM-DD HH:MM:SS.'
      if (field === 'duration') {
        const problem = durationProblem(value)
        if (problem) return problem
      }
      const t = env.tables.calendar_events
      if (!t.rows.some((r) => r[0] === a['event_id'])) return 'Event not found.'
      if (field === 'participant_email') value = pyLower(value)
      env.tables.calendar_events = setWhere(
        t,
        (r) => r[0] === a['event_id'],
        t.columns.indexOf(field),
        value,
      )
      return 'Event updated successfully.'
    },
  ),
]

import type { JsonValue } from '../../../json.ts'
import { applyMask, containsMask } from '../contains.ts'
import { assertHashable, PyError, pyLower, pyTypeName, truthy } from '../python.ts'
import type { Table } from '../Table.ts'
import { appendRelabel, filterRows, setWhere, toRecords } from '../Table.ts'
import type { ToolDef } from './ToolDef.ts'
import { tool } from './ToolDef.ts'
import { nextPaddedId } from './idAllocation.ts'

const LISTS = ['Backlog', 'In Progress', 'In Review', 'Completed']
const BOARDS = ['Back end', 'Front end', 'Design']
/**
 * A task's fields: the parameters of search_tasks and create_task, in their Python signature order.
 */
const TASK_FIELDS = ['task_name', 'assigned_to_email', 'list_name', 'due_date', 'board'] as const
const BAD_ASSIGNEE = 'Assignee email not valid. Please choose from the list of team members.'
const BAD_LIST =
  "List not valid. Please choose from: 'Backlog', 'In Progress', 'In Review', 'Completed'."
const BAD_BOARD = "Board not valid. Please choose from: 'Back end', 'Front end', 'Design'."
// Python re.match with a trailing `$`, which also matches before a final newline.
const EMAIL_RE = /^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}\n?$/

/**
 * The current assignees, lowercased (non-string cells drop out, as `.str.lower()` makes them NaN).
 */
function assignees(t: Table): Set<string> {
  const i = t.columns.indexOf('assigned_to_email')
  return new Set(
    t.rows
      .map((r) => r[i])
      .filter((v): v is string => typeof v === 'string')
      .map((v) => v.toLowerCase()),
  )
}

const isIn = (v: JsonValue | undefined, options: readonly string[]) =>
  typeof v === 'string' && options.includes(v)

/** The five `ProjectManagementTool` functions (docs/environments.md §4.4 project_management). */
export const projectManagementTools: readonly ToolDef[] = [
  tool(
    'project_management_get_task_information_by_id',
    'ProjectManagementTool.get_task_information_by_id',
    [
      ['task_id', null],
      ['field', null],
    ],
    (env, a) => {
      if (!truthy(a['task_id'])) return 'Task ID not provided.'
      if (!truthy(a['field'])) return 'Field not provided.'
      const t = env.tables.project_tasks
      const row = t.rows.find((r) => r[0] === a['task_id'])
      if (!row) return 'Task not found.'
      const field = a['field']
      assertHashable(field)
      const i = typeof field === 'string' ? t.columns.indexOf(field) : -1
      return i < 0 ? 'Field not found.' : { [field as string]: row[i] ?? null }
    },
  ),
  tool(
    'project_management_search_tasks',
    'ProjectManagementTool.search_tasks',
    TASK_FIELDS.map((k) => [k, null] as const),
    (env, a) => {
      if (!TASK_FIELDS.some((k) => truthy(a[k]))) return 'No search parameters provided.'
      const email = a['assigned_to_email']
      if (truthy(email) && typeof email !== 'string')
        throw new PyError(
          'TypeError',
          `expected string or bytes-like object, got '${pyTypeName(email)}'`,
        )
      if (truthy(email) && !EMAIL_RE.test(email as string))
        return 'Invalid email format for assigned_to_email.'
      let t = env.tables.project_tasks
      if (truthy(a['task_name'])) t = applyMask(t, containsMask(t, 'task_name', a['task_name']))
      if (truthy(email)) {
        const i = t.columns.indexOf('assigned_to_email')
        const want = pyLower(email)
        t = filterRows(
          t,
          (r) => typeof r[i] === 'string' && (r[i] as string).toLowerCase() === want,
        )
      }
      for (const k of ['list_name', 'due_date', 'board'])
        if (truthy(a[k])) t = applyMask(t, containsMask(t, k, a[k]))
      return toRecords(t)
    },
  ),
  tool(
    'project_management_create_task',
    'ProjectManagementTool.create_task',
    TASK_FIELDS.map((k) => [k, null] as const),
    (env, a) => {
      if (!TASK_FIELDS.every((k) => truthy(a[k]))) return 'Missing task details.'
      const t = env.tables.project_tasks
      const email = pyLower(a['assigned_to_email'])
      if (!assignees(t).has(email)) return BAD_ASSIGNEE
      if (!isIn(a['list_name'], LISTS)) return BAD_LIST
      if (!isIn(a['board'], BOARDS)) return BAD_BOARD
      const id = nextPaddedId(t, 'task_id')
      env.tables.project_tasks = appendRelabel(t, [
        id,
        a['task_name'] ?? null,
        email,
        a['list_name'] ?? null,
        a['due_date'] ?? null,
        a['board'] ?? null,
      ])
      return id
    },
  ),
  tool(
    'project_management_delete_task',
    'ProjectManagementTool.delete_task',
    [['task_id', null]],
    (env, a) => {
      if (!truthy(a['task_id'])) return 'Task ID not provided.'
      const t = env.tables.project_tasks
      if (!t.rows.some((r) => r[0] === a['task_id'])) return 'Task not found.'
      env.tables.project_tasks = filterRows(t, (r) => r[0] !== a['task_id'])
      return 'Task deleted successfully.'
    },
  ),
  tool(
    'project_management_update_task',
    'ProjectManagementTool.update_task',
    [
      ['task_id', null],
      ['field', null],
      ['new_value', null],
    ],
    (env, a) => {
      if (!truthy(a['task_id']) || !truthy(a['field']) || !truthy(a['new_value']))
        return 'Task ID, field, or new value not provided.'
      const field = a['field']
      let value = a['new_value'] ?? null
      if (field === 'assigned_to_email') value = pyLower(value)
      const t = env.tables.project_tasks
      if (field === 'board' && !isIn(value, BOARDS)) return BAD_BOARD
      if (field === 'list_name' && !isIn(value, LISTS)) return BAD_LIST
      if (field === 'assigned_to_email' && !assignees(t).has(value as string)) return BAD_ASSIGNEE
      if (!t.rows.some((r) => r[0] === a['task_id'])) return 'Task not found.'
      assertHashable(field)
      const i = typeof field === 'string' ? t.columns.indexOf(field) : -1
      if (i < 0) return 'Field not valid.'
      env.tables.project_tasks = setWhere(t, (r) => r[0] === a['task_id'], i, value)
      return 'Task updated successfully.'
    },
  ),
]

import { applyMask, containsMask } from '../contains.ts'
import { paginate } from '../paginate.ts'
import { assertHashable, compareStr, pyLower, truthy } from '../python.ts'
import type { Cell } from '../Table.ts'
import { appendRelabel, filterRows, setWhere, toRecords } from '../Table.ts'
import type { ToolDef } from './ToolDef.ts'
import { tool } from './ToolDef.ts'
import { nextPaddedId } from './idAllocation.ts'

const STATUSES = ['Qualified', 'Won', 'Lost', 'Lead', 'Proposal']
const PRODUCTS = ['Software', 'Hardware', 'Services', 'Consulting', 'Training']
const FIELDS = [
  'customer_name',
  'assigned_to_email',
  'customer_email',
  'customer_phone',
  'last_contact_date',
  'product_interest',
  'status',
  'notes',
  'follow_up_by',
]
const SEARCH_FILTERS = [
  'customer_name',
  'customer_email',
  'product_interest',
  'status',
  'assigned_to_email',
] as const
const DATE_FILTERS = [
  ['last_contact_date_min', 'last_contact_date', '>='],
  ['last_contact_date_max', 'last_contact_date', '<='],
  ['follow_up_by_min', 'follow_up_by', '>='],
  ['follow_up_by_max', 'follow_up_by', '<='],
] as const

/** The four `CustomerRelationshipManagerTool` functions (docs/environments.md §4.4 crm). */
export const customerRelationshipManagerTools: readonly ToolDef[] = [
  tool(
    'customer_relationship_manager_search_customers',
    'CustomerRelationshipManagerTool.search_customers',
    [
      ...SEARCH_FILTERS.map((k) => [k, null] as const),
      ...DATE_FILTERS.map(([k]) => [k, null] as const),
      ['page', 1],
      ['page_size', 5],
    ],
    (env, a) => {
      if (![...SEARCH_FILTERS, ...DATE_FILTERS.map(([k]) => k)].some((k) => truthy(a[k])))
        return 'No search parameters provided. Please provide at least one parameter.'
      let t = env.tables.crm_data
      for (const k of SEARCH_FILTERS) if (truthy(a[k])) t = applyMask(t, containsMask(t, k, a[k]))
      for (const [arg, column, op] of DATE_FILTERS) {
        if (!truthy(a[arg])) continue
        const i = t.columns.indexOf(column)
        t = filterRows(t, (r) => compareStr(r[i] ?? null, a[arg] ?? null, op))
      }
      // Pagination is computed before the empty check, so page_size 0 raises even with no results.
      const p = paginate(t.rows, a['page'], a['page_size'])
      if (t.rows.length === 0) return 'No customers found.'
      return {
        customers: toRecords(t, p.items),
        pagination: {
          total_customers: t.rows.length,
          page: p.page,
          page_size: p.pageSize,
          total_pages: p.totalPages,
        },
      }
    },
  ),
  tool(
    'customer_relationship_manager_update_customer',
    'CustomerRelationshipManagerTool.update_customer',
    [
      ['customer_id', null],
      ['field', null],
      ['new_value', null],
    ],
    (env, a) => {
      if (!truthy(a['customer_id']) || !truthy(a['field']) || !truthy(a['new_value']))
        return 'Customer ID, field, or new value not provided.'
      const field = a['field']
      let value: Cell = a['new_value'] ?? null
      if (field === 'status' && !(typeof value === 'string' && STATUSES.includes(value)))
        return "Status not valid. Please choose from: 'Qualified', 'Won', 'Lost', 'Lead', 'Proposal'"
      if (field === 'product_interest' && !(typeof value === 'string' && PRODUCTS.includes(value)))
        return "Product interest not valid. Please choose from: 'Software', 'Hardware', 'Services', 'Consulting', 'Training'"
      if (field === 'customer_email' || field === 'assigned_to_email') value = pyLower(value)
      const t = env.tables.crm_data
      if (!t.rows.some((r) => r[0] === a['customer_id'])) return 'Customer not found.'
      assertHashable(field)
      const i = typeof field === 'string' ? t.columns.indexOf(field) : -1
      if (i < 0)
        return `Field not valid. Please choose from: ${FIELDS.map((f) => `'${f}'`).join(', ')}`
      env.tables.crm_data = setWhere(t, (r) => r[0] === a['customer_id'], i, value)
      return 'Customer updated successfully.'
    },
  ),
  tool(
    'customer_relationship_manager_add_customer',
    'CustomerRelationshipManagerTool.add_customer',
    [
      ['customer_name', null],
      ['assigned_to_email', null],
      ['status', null],
      ['customer_email', null],
      ['customer_phone', null],
      ['last_contact_date', null],
      ['product_interest', null],
      ['notes', ''],
      ['follow_up_by', null],
    ],
    (env, a) => {
      if (!truthy(a['customer_name']) || !truthy(a['assigned_to_email']) || !truthy(a['status']))
        return 'Please provide all required fields: customer_name, assigned_to_email, status.'
      const values: { [k: string]: Cell } = { ...a }
      values['assigned_to_email'] = pyLower(a['assigned_to_email'])
      if (truthy(a['customer_email'])) values['customer_email'] = pyLower(a['customer_email'])
      const t = env.tables.crm_data
      const id = nextPaddedId(t, 'customer_id')
      values['customer_id'] = id
      env.tables.crm_data = appendRelabel(
        t,
        t.columns.map((c) => values[c] ?? null),
      )
      return id
    },
  ),
  tool(
    'customer_relationship_manager_delete_customer',
    'CustomerRelationshipManagerTool.delete_customer',
    [['customer_id', null]],
    (env, a) => {
      if (!truthy(a['customer_id'])) return 'Customer ID not provided.'
      const t = env.tables.crm_data
      if (!t.rows.some((r) => r[0] === a['customer_id'])) return 'Customer not found.'
      env.tables.crm_data = filterRows(t, (r) => r[0] !== a['customer_id'])
      return 'Customer deleted successfully.'
    },
  ),
]

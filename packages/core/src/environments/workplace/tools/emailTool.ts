import type { JsonValue } from '../../../json.ts'
import { paginate } from '../paginate.ts'
import { PyError, pyInt, pyLower, pyStr, pyTypeName, truthy } from '../python.ts'
import { parseTimestamp } from '../pyTimestamp.ts'
import type { Row, Table } from '../Table.ts'
import { appendRelabel, filterRows, toRecord, toRecords } from '../Table.ts'
import type { ToolEnv } from '../WorkplaceSession.ts'
import type { ToolDef } from './ToolDef.ts'
import { tool } from './ToolDef.ts'

const CURRENT_TIME = '2023-11-30 23:59:00'
const COL = { id: 0, box: 1, peer: 2, subject: 3, sent: 4, body: 5 } as const

// Rows are immutable and shared by every session: each row's lowercased search text is built once.
const searchTexts = new WeakMap<Row, string>()

/** The text `search_emails` matches query words against: subject, body and peer, lowercased. */
function searchText(r: Row): string {
  let text = searchTexts.get(r)
  if (text === undefined) {
    text = `${pyStr(r[COL.subject])} ${pyStr(r[COL.body])} ${pyStr(r[COL.peer])}`.toLowerCase()
    searchTexts.set(r, text)
  }
  return text
}

function rowsWithId(table: Table, id: JsonValue): Row[] {
  return table.rows.filter((r) => r[COL.id] === id)
}

/** Python `x in s` for a str s; TypeError otherwise. */
function pyIn(needle: string, haystack: JsonValue): boolean {
  if (typeof haystack !== 'string')
    throw new PyError('TypeError', `argument of type '${pyTypeName(haystack)}' is not iterable`)
  return haystack.includes(needle)
}

/** `EmailTool.send_email` as the other email tools call it. */
function sendEmail(
  env: ToolEnv,
  recipient: JsonValue,
  subject: JsonValue,
  body: JsonValue,
): string {
  if (!truthy(recipient) || !truthy(subject) || !truthy(body))
    return 'Recipient, subject, or body not provided.'
  // Outside the reference's try: a non-str recipient raises to the route.
  if (!pyIn('@', recipient) || !pyIn('.', recipient)) return 'Invalid recipient email address.'
  try {
    const to = pyLower(recipient)
    const table = env.tables.emails
    // max() over the id strings is lexicographic, so new ids are not zero-padded: "500", "501", ...
    let max: string | undefined
    for (const r of table.rows) {
      const id = r[COL.id]
      if (typeof id !== 'string')
        throw new PyError(
          'TypeError',
          `'>' not supported between instances of '${pyTypeName(id)}' and 'str'`,
        )
      if (max === undefined || id > max) max = id
    }
    const next = max === undefined ? '1' : String(pyInt(max) + 1)
    env.tables.emails = appendRelabel(table, [next, 'outbox', to, subject, CURRENT_TIME, body])
    return 'Email sent successfully.'
  } catch (e) {
    if (e instanceof PyError) return `Error sending email: ${e.message}`
    throw e
  }
}

const dateOf = (v: JsonValue): string => parseTimestamp(v).date

/** The reference's `try: ... except Exception as e: return f"{prefix}: {e}"`. */
function guarded(prefix: string, body: () => string): string {
  try {
    return body()
  } catch (e) {
    if (e instanceof PyError) return `${prefix}: ${e.message}`
    throw e
  }
}

/** The six `EmailTool` functions (docs/environments.md §4.4 email). */
export const emailTools: readonly ToolDef[] = [
  tool(
    'email_get_email_information_by_id',
    'EmailTool.get_email_information_by_id',
    [
      ['email_id', null],
      ['field', null],
    ],
    (env, a) => {
      if (!truthy(a['email_id'])) return 'Email ID not provided.'
      if (!truthy(a['field'])) return 'Field not provided.'
      const table = env.tables.emails
      const found = rowsWithId(table, a['email_id'] ?? null)[0]
      if (!found) return 'Email not found.'
      const field = a['field']
      if (Array.isArray(field) || (typeof field === 'object' && field !== null))
        return `Error retrieving email information: unhashable type: '${pyTypeName(field)}'`
      const i = typeof field === 'string' ? table.columns.indexOf(field) : -1
      if (i < 0)
        return `Field '${pyStr(field)}' not found. Available fields: ${table.columns.join(', ')}`
      return { [field as string]: found[i] ?? null }
    },
  ),
  tool(
    'email_search_emails',
    'EmailTool.search_emails',
    [
      ['query', ''],
      ['date_min', null],
      ['date_max', null],
      ['page', 1],
      ['page_size', 5],
    ],
    (env, a) => {
      try {
        const words = pyLower(a['query'])
          .split(/\s+/)
          .filter((w) => w !== '')
        const table = env.tables.emails
        let rows = table.rows.filter((r) => {
          const text = searchText(r)
          return words.every((w) => text.includes(w))
        })
        // Stable descending sort: ties keep insertion order (the reference's order for small
        // sorts).
        rows = rows
          .map((r, i) => [r, i] as const)
          .sort(([x, i], [y, j]) => {
            const sx = String(x[COL.sent])
            const sy = String(y[COL.sent])
            return sx < sy ? 1 : sx > sy ? -1 : i - j
          })
          .map(([r]) => r)
        // The bounds are parsed per row inside the filter, so with no rows a bad bound never
        // raises.
        if (truthy(a['date_min']))
          rows = rows.filter((r) => dateOf(r[COL.sent] ?? null) >= dateOf(a['date_min'] ?? null))
        if (truthy(a['date_max']))
          rows = rows.filter((r) => dateOf(r[COL.sent] ?? null) <= dateOf(a['date_max'] ?? null))
        // Pagination is computed before the empty check, so page_size 0 raises even with no
        // results.
        const p = paginate(rows, a['page'], a['page_size'])
        if (rows.length === 0) return 'No emails found.'
        return {
          emails: toRecords(table, p.items),
          pagination: {
            total_emails: rows.length,
            page: p.page,
            page_size: p.pageSize,
            total_pages: p.totalPages,
          },
        }
      } catch (e) {
        if (e instanceof PyError) return `Error searching emails: ${e.message}`
        throw e
      }
    },
  ),
  tool(
    'email_send_email',
    'EmailTool.send_email',
    [
      ['recipient', null],
      ['subject', null],
      ['body', null],
    ],
    (env, a) => sendEmail(env, a['recipient'] ?? null, a['subject'] ?? null, a['body'] ?? null),
  ),
  tool('email_delete_email', 'EmailTool.delete_email', [['email_id', null]], (env, a) => {
    if (!truthy(a['email_id'])) return 'Email ID not provided.'
    if (rowsWithId(env.tables.emails, a['email_id'] ?? null).length === 0) return 'Email not found.'
    env.tables.emails = filterRows(env.tables.emails, (r) => r[COL.id] !== a['email_id'])
    return 'Email deleted successfully.'
  }),
  tool(
    'email_forward_email',
    'EmailTool.forward_email',
    [
      ['email_id', null],
      ['recipient', null],
    ],
    (env, a) => {
      const recipient = a['recipient'] ?? null
      if (!truthy(a['email_id']) || !truthy(recipient)) return 'Email ID or recipient not provided.'
      if (!pyIn('@', recipient) || !pyIn('.', recipient)) return 'Invalid recipient email address.'
      return guarded('Error forwarding email', () => {
        const original = rowsWithId(env.tables.emails, a['email_id'] ?? null)[0]
        if (!original) return 'Email not found.'
        const record = toRecord(env.tables.emails.columns, original)
        const result = sendEmail(
          env,
          pyLower(recipient),
          `FW: ${pyStr(record['subject'])}`,
          record['body'] ?? null,
        )
        return result.includes('Error') || result.includes('Invalid')
          ? result
          : 'Email forwarded successfully.'
      })
    },
  ),
  tool(
    'email_reply_email',
    'EmailTool.reply_email',
    [
      ['email_id', null],
      ['body', null],
    ],
    (env, a) => {
      if (!truthy(a['email_id']) || !truthy(a['body'])) return 'Email ID or body not provided.'
      return guarded('Error replying to email', () => {
        const original = rowsWithId(env.tables.emails, a['email_id'] ?? null)[0]
        if (!original) return 'Email not found.'
        const result = sendEmail(
          env,
          original[COL.peer] ?? null,
          `RE: ${pyStr(original[COL.subject])}`,
          a['body'] ?? null,
        )
        return result.includes('Error') || result.includes('Invalid')
          ? result
          : 'Email replied successfully.'
      })
    },
  ),
]

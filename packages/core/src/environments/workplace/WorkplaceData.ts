import type { Digest } from '../../ports.ts'
import type { JsonValue } from '../../json.ts'
import { canonicalJson } from '../../json.ts'
import { parseCsv } from './csv.ts'
import type { Row, Table } from './Table.ts'
import type { WorkplaceBase, WorkplaceExample } from './WorkplaceSession.ts'

/**
 * Port: the raw Workplace Assistant data (vendor/workplace_assistant/). Core never reads files;
 * the Node adapter (adapters/nodeWorkplaceData.ts) or a test supplies the texts.
 */
export interface WorkplaceData {
  readonly emailsCsv: string
  readonly calendarEventsCsv: string
  readonly analyticsDataCsv: string
  readonly projectTasksCsv: string
  readonly crmDataCsv: string
  /** raw/email_addresses.csv: no header, one address a line. */
  readonly emailAddressesCsv: string
  /** data/example.jsonl */
  readonly examplesJsonl: string
}

/** `pd.read_csv(path, dtype=str)`: string cells, empty cells null, labels 0..n-1. */
function readCsvStr(text: string): Table {
  const [header, ...body] = parseCsv(text)
  const columns = header ?? []
  const rows: Row[] = body.map((r) =>
    columns.map((_, i) => (r[i] === undefined || r[i] === '' ? null : (r[i] as string))),
  )
  return { columns, labels: rows.map((_, i) => i), rows }
}

/**
 * Parses the raw data once into the immutable base tables (docs/environments.md §4.3). Pure: the
 * digest port identifies the base for delta snapshots.
 */
export function parseWorkplaceBase(data: WorkplaceData, digest: Digest): WorkplaceBase {
  const analyticsRaw = readCsvStr(data.analyticsDataCsv)
  const engaged = analyticsRaw.columns.indexOf('user_engaged')
  const duration = analyticsRaw.columns.indexOf('session_duration_seconds')
  // The tool converts "True"/"False" to bool on load.
  const analytics: Table = {
    ...analyticsRaw,
    rows: analyticsRaw.rows.map((r) => r.map((c, i) => (i === engaged ? c === 'True' : c))),
  }
  const analyticsFloat: Table = {
    ...analytics,
    rows: analytics.rows.map((r) =>
      r.map((c, i) => (i === duration && typeof c === 'string' ? Number.parseFloat(c) : c)),
    ),
  }
  const addresses = parseCsv(data.emailAddressesCsv).map((r) => r[0] ?? '')
  const examples = data.examplesJsonl
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as WorkplaceExample)
  const first = examples[0]?.responses_create_params
  const tools =
    first !== null && typeof first === 'object' && !Array.isArray(first)
      ? first['tools']
      : undefined
  return deepFreeze({
    tables: {
      emails: readCsvStr(data.emailsCsv),
      calendar_events: readCsvStr(data.calendarEventsCsv),
      analytics_data: analytics,
      plots_data: { columns: ['file_path'], labels: [], rows: [] },
      project_tasks: readCsvStr(data.projectTasksCsv),
      crm_data: readCsvStr(data.crmDataCsv),
      email_addresses: {
        columns: ['email_address'],
        labels: addresses.map((_, i) => i),
        rows: addresses.map((a) => [a]),
      },
    },
    analyticsFloat,
    digest: digest.sha256Hex(
      canonicalJson([
        data.emailsCsv,
        data.calendarEventsCsv,
        data.analyticsDataCsv,
        data.projectTasksCsv,
        data.crmDataCsv,
        data.emailAddressesCsv,
      ]),
    ),
    examples,
    toolSchemas: Array.isArray(tools) ? (tools as JsonValue[]) : [],
  })
}

/**
 * Freezes the base so a tool that forgot copy-on-write fails loudly instead of corrupting every
 * session.
 */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const v of Object.values(value as object)) deepFreeze(v)
  }
  return value
}

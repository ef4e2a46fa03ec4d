import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { WorkplaceData } from '../environments/workplace/WorkplaceData.ts'

/**
 * `vendor/workplace_assistant/` located from this file (packages/core/src/adapters → repo root).
 */
export const WORKPLACE_VENDOR_DIR = fileURLToPath(
  new URL('../../../../vendor/workplace_assistant/', import.meta.url),
)

let cached: WorkplaceData | undefined

/**
 * Node adapter for the WorkplaceData port: reads the vendored CSVs and example.jsonl once
 * (synchronously, at startup or first use) and caches the texts.
 */
export function loadNodeWorkplaceData(dir: string = WORKPLACE_VENDOR_DIR): WorkplaceData {
  if (cached && dir === WORKPLACE_VENDOR_DIR) return cached
  const read = (p: string) =>
    readFileSync(new URL(p, `file://${dir.endsWith('/') ? dir : `${dir}/`}`), 'utf8')
  const data: WorkplaceData = {
    emailsCsv: read('csv_data/processed/emails.csv'),
    calendarEventsCsv: read('csv_data/processed/calendar_events.csv'),
    analyticsDataCsv: read('csv_data/processed/analytics_data.csv'),
    projectTasksCsv: read('csv_data/processed/project_tasks.csv'),
    crmDataCsv: read('csv_data/processed/customer_relationship_manager_data.csv'),
    emailAddressesCsv: read('csv_data/raw/email_addresses.csv'),
    examplesJsonl: read('data/example.jsonl'),
  }
  if (dir === WORKPLACE_VENDOR_DIR) cached = data
  return data
}

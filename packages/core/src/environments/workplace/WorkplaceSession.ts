import type { JsonValue } from '../../json.ts'
import type { Table } from './Table.ts'

/** The five tables a Workplace session mutates (the graded ones, docs/environments.md §4.5). */
export const SESSION_TABLES = [
  'emails',
  'calendar_events',
  'plots_data',
  'project_tasks',
  'crm_data',
] as const
export type SessionTableName = (typeof SESSION_TABLES)[number]

/** Every table a session exposes, in the CLI/fixture order (docs/cli.md). */
export const ALL_TABLES = [
  'emails',
  'calendar_events',
  'analytics_data',
  'plots_data',
  'project_tasks',
  'crm_data',
  'email_addresses',
] as const
export type TableName = (typeof ALL_TABLES)[number]

/**
 * One Workplace Assistant session as plain immutable data. `analytics_data` and the company
 * directory never change except for one side effect, modelled as a flag:
 * `get_average_session_duration()` without bounds converts `session_duration_seconds` to float in
 * place.
 */
export interface WorkplaceSession {
  readonly tables: { readonly [K in SessionTableName]: Table }
  readonly sessionDurationFloat: boolean
}

/** One dataset task (data/example.jsonl). */
export interface WorkplaceExample {
  readonly id: number
  readonly responses_create_params: JsonValue
  readonly ground_truth: JsonValue
  readonly category: string
  readonly environment_name: string
}

/**
 * The pristine tables parsed once from the vendored CSVs; immutable and shared by every session.
 */
export interface WorkplaceBase {
  readonly tables: { readonly [K in TableName]: Table }
  /** analytics_data after the session_duration float conversion (derived once). */
  readonly analyticsFloat: Table
  /**
   * Digest of the raw data the base was parsed from: a delta snapshot names the base it is against.
   */
  readonly digest: string
  readonly examples: readonly WorkplaceExample[]
  /** The 27 tool schemas, exactly as the dataset rows carry them. */
  readonly toolSchemas: readonly JsonValue[]
}

/** A fresh session: the base tables themselves (shared; tools never mutate them). */
export function freshSession(base: WorkplaceBase): WorkplaceSession {
  const t = base.tables
  return {
    tables: {
      emails: t.emails,
      calendar_events: t.calendar_events,
      plots_data: t.plots_data,
      project_tasks: t.project_tasks,
      crm_data: t.crm_data,
    },
    sessionDurationFloat: false,
  }
}

/** All seven tables of a session as the tools see them. */
export function sessionTables(
  base: WorkplaceBase,
  session: WorkplaceSession,
): { readonly [K in TableName]: Table } {
  return {
    ...session.tables,
    analytics_data: session.sessionDurationFloat ? base.analyticsFloat : base.tables.analytics_data,
    email_addresses: base.tables.email_addresses,
  }
}

/**
 * The mutable working copy one tool call runs against; its table references are replaced, never
 * mutated.
 */
export interface ToolEnv {
  readonly base: WorkplaceBase
  tables: { [K in SessionTableName]: Table }
  sessionDurationFloat: boolean
}

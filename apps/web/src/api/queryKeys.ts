import type { EnvName, SessionColumn, SessionSort } from '@cutover/core/contracts'

/**
 * A range of a run's events: after step `from`, at most `limit`, with the optional filters of `GET
 * /api/runs/:id/events`.
 */
export interface EventsRangeParams {
  readonly from: number
  readonly limit: number
  readonly rollout?: string
  readonly type?: string
  readonly q?: string
}

/**
 * A window of the Sessions tab (`GET
 * /api/runs/:id/sessions?step=&offset=&limit=&sort=&dir=&q=&session=`).
 */
export interface SessionsWindowParams {
  readonly step: number
  readonly offset: number
  readonly limit: number
  readonly sort: SessionColumn
  readonly dir: SessionSort['direction']
  /** The filter ('' for none). */
  readonly q: string
  readonly session?: string | undefined
  /** Only one environment's sessions (the Tables tab's Workplace picker). */
  readonly environment?: EnvName | undefined
}

/** A window of the timeline's lanes (`GET /api/runs/:id/timeline?step=&offset=&limit=`). */
export interface TimelineParams {
  /** The run's events when asked (a running run's timeline grows). */
  readonly total: number
  readonly offset: number
  readonly limit: number
}

/**
 * Query keys, one factory per resource (TanStack's key factory pattern).
 *
 * Runs: from one factory (TanStack's key factory pattern): every key of a run starts
 * with `runKeys.detail(id)`, so removing or invalidating that prefix reaches all of the run (its
 * view, events, steps, sessions, tables, lineage, checkpoints); the list sits beside, under
 * `runKeys.list()`.
 */
export const runKeys = {
  all: ['runs'] as const,
  list: () => [...runKeys.all, 'list'] as const,
  detail: (id: string) => [...runKeys.all, 'detail', id] as const,
  events: (id: string) => [...runKeys.detail(id), 'events'] as const,
  summary: (id: string, status: string) => [...runKeys.detail(id), 'summary', status] as const,
  eventsRange: (id: string, range: EventsRangeParams, edge: number) =>
    [...runKeys.detail(id), 'events-range', range, edge] as const,
  eventsMatching: (id: string, q: string, edge: number) =>
    [...runKeys.detail(id), 'events-matching', q, edge] as const,
  step: (id: string, step: number, collapsed: readonly string[] = []) =>
    [...runKeys.detail(id), 'step', step, [...collapsed].sort()] as const,
  sessionsWindow: (id: string, params: SessionsWindowParams) =>
    [...runKeys.detail(id), 'sessions-window', params] as const,
  session: (id: string, key: string, step: number) =>
    [...runKeys.detail(id), 'session', key, step] as const,
  tables: (id: string, key: string, step: number) =>
    [...runKeys.detail(id), 'tables', key, step] as const,
  lineage: (id: string, step: number) => [...runKeys.detail(id), 'lineage', step] as const,
  message: (id: string, step: number) => [...runKeys.detail(id), 'message', step] as const,
  timeline: (id: string, params: TimelineParams) =>
    [...runKeys.detail(id), 'timeline', params] as const,
  checkpoints: (id: string, status: string) =>
    [...runKeys.detail(id), 'checkpoints', status] as const,
  checkpointFile: (id: string, cid: string, path: string) =>
    [...runKeys.detail(id), 'checkpoint-file', cid, path] as const,
}

/** The scenario presets (they never change while the server runs). */
export const scenarioKeys = {
  all: ['scenarios'] as const,
}

/** The teaching-mode bug catalogue (fixed while the server runs). */
export const bugKeys = {
  all: ['bugs'] as const,
}

/**
 * Directory runs (a checkpoint directory opened read-only): everything of one under `detail(id)`.
 */
export const directoryKeys = {
  all: ['directories'] as const,
  list: () => [...directoryKeys.all, 'list'] as const,
  detail: (id: string) => [...directoryKeys.all, 'detail', id] as const,
  tables: (id: string, key: string) => [...directoryKeys.detail(id), 'tables', key] as const,
  file: (id: string, path: string) => [...directoryKeys.detail(id), 'file', path] as const,
}

/** The diff of two finished runs. */
export const diffKeys = {
  all: ['diffs'] as const,
  pair: (a: string, b: string) => [...diffKeys.all, a, b] as const,
}

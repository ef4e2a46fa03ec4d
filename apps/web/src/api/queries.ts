import { queryOptions } from '@tanstack/react-query'
import type {
  BugInfo,
  EventsRange,
  RunSummary,
  CheckpointView,
  LineageView,
  MessageView,
  RunConfigInput,
  RunView,
  ScenarioInfo,
  SessionDetailView,
  SessionsWindow,
  StepView,
  TablesView,
  TimelineView,
  TraceEvent,
  TracePhase,
} from '@cutover/core/contracts'
import { apiFetch, apiText } from './client.ts'
import { bugKeys, runKeys, scenarioKeys } from './queryKeys.ts'
import type { EventsRangeParams, SessionsWindowParams, TimelineParams } from './queryKeys.ts'

export type { EventsRangeParams } from './queryKeys.ts'

/**
 * Query factories: one source for fetchers (TanStack "Query Options"); their keys come from
 * `runKeys` / `scenarioKeys`, so `runKeys.detail(id)` reaches everything of a run.
 */

const run = (id: string) => `/api/runs/${encodeURIComponent(id)}`
const session = (id: string, key: string) => `${run(id)}/sessions/${encodeURIComponent(key)}`

export const scenariosQuery = () =>
  queryOptions({
    queryKey: scenarioKeys.all,
    queryFn: () => apiFetch<{ scenarios: ScenarioInfo[] }>('/api/scenarios'),
    staleTime: Infinity,
  })

export const bugsQuery = () =>
  queryOptions({
    queryKey: bugKeys.all,
    queryFn: () => apiFetch<{ bugs: BugInfo[] }>('/api/bugs'),
    staleTime: Infinity,
  })

export const runsQuery = () =>
  queryOptions({
    queryKey: runKeys.list(),
    queryFn: () => apiFetch<{ runs: RunView[] }>('/api/runs'),
    // a running run changes status on its own: poll while any is running
    refetchInterval: (query) =>
      query.state.data?.runs.some((r) => r.status === 'running') ? 1_000 : false,
  })

export const runQuery = (id: string) =>
  queryOptions({
    queryKey: runKeys.detail(id),
    queryFn: () => apiFetch<RunView>(run(id)),
  })

/**
 * The whole trace of a finished run; a running run's trace is streamed into this key (useRunTrace).
 */
export const eventsQuery = (id: string) =>
  queryOptions({
    queryKey: runKeys.events(id),
    queryFn: () => apiFetch<{ events: TraceEvent[] }>(`${run(id)}/events`),
    staleTime: Infinity,
  })

/**
 * What the run page needs from the whole trace (phase bands, key moments, the event total, the
 * last event) without the trace: ≈ 100 MB of JSON at 10,000 rollouts. A running run's summary is
 * asked again every SUMMARY_POLL_MS (the live edge); its status is part of the key, so the summary
 * of the finished run is asked once more when it ends.
 */
export const summaryQuery = (id: string, status: RunView['status'] | undefined) =>
  queryOptions({
    queryKey: runKeys.summary(id, status ?? 'unknown'),
    queryFn: () => apiFetch<RunSummary>(`${run(id)}/summary`),
    staleTime: status === 'running' ? 0 : Infinity,
    refetchInterval: status === 'running' ? SUMMARY_POLL_MS : false,
  })

/** How often a running run's summary is asked (the counter, scrubber and live line follow it). */
export const SUMMARY_POLL_MS = 250

/**
 * A range of a run's events. `edge` is the run's event count the range was asked at when it
 * could still grow (a running run, a range reaching the edge): a later edge asks it again; a range
 * wholly before the edge never changes.
 */
export const eventsRangeQuery = (id: string, range: EventsRangeParams, edge: number) =>
  queryOptions({
    queryKey: runKeys.eventsRange(id, range, edge),
    queryFn: () => {
      const params = new URLSearchParams(Object.entries(range).map(([k, v]) => [k, String(v)]))
      return apiFetch<EventsRange>(`${run(id)}/events?${params.toString()}`)
    },
    staleTime: Infinity,
  })

/**
 * A step of a run never changes once it exists, so it is cached for good. `collapsed` phases are
 * folded by the API (`?collapsed=`), and are part of the key.
 */
export const stepQuery = (id: string, step: number, collapsed: readonly TracePhase[] = []) => {
  const folded = [...collapsed].sort()
  return queryOptions({
    queryKey: runKeys.step(id, step, folded),
    queryFn: () =>
      apiFetch<StepView>(
        `${run(id)}/steps/${step}${folded.length > 0 ? `?collapsed=${folded.join(',')}` : ''}`,
      ),
    staleTime: Infinity,
  })
}

/** A window of the session rows at a step, sorted and filtered by the server (the Sessions tab). */
export const sessionsWindowQuery = (id: string, params: SessionsWindowParams) => {
  const search = new URLSearchParams({
    step: String(params.step),
    offset: String(params.offset),
    limit: String(params.limit),
    sort: params.sort,
    dir: params.dir,
  })
  if (params.q !== '') search.set('q', params.q)
  if (params.session !== undefined) search.set('session', params.session)
  if (params.environment !== undefined) search.set('environment', params.environment)
  return queryOptions({
    queryKey: runKeys.sessionsWindow(id, params),
    queryFn: () => apiFetch<SessionsWindow>(`${run(id)}/sessions?${search.toString()}`),
    // the rows of a step that exists never change
    staleTime: Infinity,
    gcTime: 60_000,
  })
}

export const sessionQuery = (id: string, key: string, step: number) =>
  queryOptions({
    queryKey: runKeys.session(id, key, step),
    queryFn: () => apiFetch<SessionDetailView>(`${session(id, key)}?step=${step}`),
    staleTime: Infinity,
  })

export const tablesQuery = (id: string, key: string, step: number) =>
  queryOptions({
    queryKey: runKeys.tables(id, key, step),
    queryFn: () => apiFetch<TablesView>(`${session(id, key)}/tables?step=${step}`),
    staleTime: Infinity,
  })

export const lineageQuery = (id: string, step: number) =>
  queryOptions({
    queryKey: runKeys.lineage(id, step),
    queryFn: () => apiFetch<LineageView>(`${run(id)}/lineage?step=${step}`),
    staleTime: Infinity,
  })

/** The payload panel of the message at a step (n ≥ 1): never changes once the step exists. */
export const messageQuery = (id: string, step: number) =>
  queryOptions({
    queryKey: runKeys.message(id, step),
    queryFn: () => apiFetch<MessageView>(`${run(id)}/steps/${step}/message`),
    staleTime: Infinity,
  })

/**
 * A window of the timeline's lanes over the run's first `total` events (the Timeline tab asks the
 * lanes in view); its `now_ms` is the edge's, the tab draws the cursor at the step shown itself.
 */
export const timelineQuery = (id: string, params: TimelineParams) =>
  queryOptions({
    queryKey: runKeys.timeline(id, params),
    queryFn: () =>
      apiFetch<TimelineView>(`${run(id)}/timeline?offset=${params.offset}&limit=${params.limit}`),
    staleTime: Infinity,
    gcTime: 60_000,
  })

/**
 * The timeline's counts alone (`limit=0`): asked ahead of the tab, it makes the run's worker build
 * the Gantt while the reader looks at the diagram.
 */
export const timelineWarmQuery = (id: string) =>
  queryOptions({
    queryKey: runKeys.timeline(id, { total: -1, offset: 0, limit: 0 }),
    queryFn: () => apiFetch<TimelineView>(`${run(id)}/timeline?limit=0`),
    staleTime: Infinity,
  })

export const checkpointsQuery = (id: string, status: RunView['status']) =>
  queryOptions({
    queryKey: runKeys.checkpoints(id, status),
    queryFn: () => apiFetch<{ checkpoints: CheckpointView[] }>(`${run(id)}/checkpoints`),
  })

export const checkpointFileQuery = (id: string, cid: string, path: string) =>
  queryOptions({
    queryKey: runKeys.checkpointFile(id, cid, path),
    queryFn: () =>
      apiText(
        `${run(id)}/checkpoints/${encodeURIComponent(cid)}/files/${path.split('/').map(encodeURIComponent).join('/')}`,
      ),
    staleTime: Infinity,
  })

/** The body of `POST /api/runs`: a config, and the run it is made from (a re-run's parent). */
export type CreateRunBody = RunConfigInput & { readonly parent?: string }

/** `POST /api/runs`: 201 with the run, still running. */
export const createRun = (config: CreateRunBody) =>
  apiFetch<RunView>('/api/runs', {
    method: 'POST',
    body: JSON.stringify(config),
    headers: { 'content-type': 'application/json' },
  })

/** `DELETE /api/runs/:id`. */
export const deleteRun = (id: string) =>
  apiFetch<unknown>(run(id), { method: 'DELETE', headers: { 'content-type': 'application/json' } })

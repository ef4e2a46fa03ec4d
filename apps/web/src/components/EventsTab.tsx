import { useCallback, useDeferredValue, useMemo, useState } from 'react'
import type { ReactNode } from 'react'
import { useInfiniteQuery, useQueries } from '@tanstack/react-query'
import type { EventsRange, TraceEvent } from '@cutover/core/contracts'
import { filterWords } from '@cutover/core/contracts'
import { apiFetch } from '../api/client.ts'
import { eventsRangeQuery } from '../api/queries.ts'
import { runKeys } from '../api/queryKeys.ts'
import { Empty } from './Empty.tsx'
import { VirtualList } from './VirtualList.tsx'

const ROW_HEIGHT = 28
/**
 * Events per page the log asks for (a 10,000-rollout trace is ≈ 260,000 events: never all at once).
 */
export const EVENTS_PAGE = 500
/** Matches a filtered log asks for at a time, more as it scrolls to their end. */
const MATCHES_PAGE = 1_000

/**
 * The Events tab: the raw trace, filterable by text; clicking an event seeks to its step, and
 * `inject` (the fault injection control for that event) sits above the list. The trace is read
 * from the server by range: the unfiltered log asks for the pages of the rows in view, a filtered
 * one for its matches (the server filters) a thousand at a time as it scrolls.
 */
export function EventsTab({
  runId,
  total,
  filterEdge,
  step,
  onSeek,
  filter: urlFilter = '',
  onFilter,
  inject,
}: {
  runId: string
  total: number
  /**
   * Where a running run's matches were last asked (asked again when it moves); -1 for a finished
   * run.
   */
  filterEdge: number
  step: number
  onSeek: (step: number) => void
  /** The filter as the URL has it (`q=`), and where a change of it goes (the URL). */
  filter?: string
  onFilter?: (filter: string) => void
  inject?: ReactNode
}) {
  const [filter, setLocalFilter] = useState(urlFilter)
  const setFilter = (text: string) => {
    setLocalFilter(text)
    onFilter?.(text)
  }
  const deferred = useDeferredValue(filter)
  const q = filterWords(deferred).join(' ')
  return (
    <div className="events" data-testid="events-log">
      <div className="table-tools">
        <input
          type="search"
          aria-label="Filter events"
          placeholder="Filter: words in type, participant, outcome, payload (e.g. stale_attempt)"
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
        />
        {q === '' && <span className="muted">{`${total} events`}</span>}
        {q !== '' && <FilteredCount runId={runId} q={q} total={total} edge={filterEdge} />}
      </div>
      {inject}
      {q === '' ? (
        <PagedLog runId={runId} total={total} step={step} onSeek={onSeek} />
      ) : (
        <FilteredLog
          runId={runId}
          q={q}
          total={total}
          edge={filterEdge}
          step={step}
          onSeek={onSeek}
        />
      )}
    </div>
  )
}

/** One row of the log; a row whose page has not arrived yet is a placeholder of the same height. */
function EventRow({
  event,
  step,
  onSeek,
}: {
  event: TraceEvent | undefined
  step: number
  onSeek: (step: number) => void
}) {
  if (event === undefined)
    return (
      <div className="event-row muted" aria-hidden="true">
        …
      </div>
    )
  return (
    <button
      type="button"
      className={`event-row phase-${event.phase}${event.step === step ? ' is-current' : ''}${event.outcome !== 'ok' ? ' is-refused' : ''}`}
      data-step={event.step}
      aria-current={event.step === step ? 'step' : undefined}
      onClick={() => onSeek(event.step)}
    >
      <span className="num muted">{event.step}</span>
      <span className="num muted">{event.time_ms}ms</span>
      <span className={`phase-chip phase-${event.phase}`}>{event.phase}</span>
      <span className="mono">
        {event.from} → {event.to}
      </span>
      <span className="mono strong">{event.type}</span>
      <span className={event.outcome === 'ok' ? 'muted' : 'outcome-error'}>{event.outcome}</span>
      <span className="mono muted payload">{JSON.stringify(event.payload)}</span>
    </button>
  )
}

/** The whole log, `total` rows, each page of EVENTS_PAGE asked when a row of it is drawn. */
function PagedLog({
  runId,
  total,
  step,
  onSeek,
}: {
  runId: string
  total: number
  step: number
  onSeek: (step: number) => void
}) {
  const [range, setRange] = useState({ start: 0, end: 0 })
  const onRange = useCallback(
    (start: number, end: number) =>
      setRange((old) => (old.start === start && old.end === end ? old : { start, end })),
    [],
  )
  const pages: number[] = []
  for (
    let p = Math.floor(range.start / EVENTS_PAGE);
    p * EVENTS_PAGE < Math.min(range.end, total);
    p++
  )
    pages.push(p)
  // a page wholly before the edge never changes; the page at a running run's edge is asked again as
  // it grows
  const edgeOf = (p: number) => ((p + 1) * EVENTS_PAGE <= total ? -1 : total)
  const answers = useQueries({
    queries: pages.map((p) => ({
      ...eventsRangeQuery(runId, { from: p * EVENTS_PAGE, limit: EVENTS_PAGE }, edgeOf(p)),
      placeholderData: (previous: EventsRange | undefined) => previous,
    })),
  })
  const loaded = new Map<number, readonly TraceEvent[]>()
  pages.forEach((p, i) => {
    const events = answers[i]?.data?.events
    if (events !== undefined) loaded.set(p, events)
  })
  // rows are indices: the sparse array costs nothing at 260,000 rows
  const rows = useMemo(() => new Array<undefined>(total), [total])
  if (total === 0) return <Empty>No events yet.</Empty>
  return (
    <VirtualList
      items={rows}
      rowHeight={ROW_HEIGHT}
      height={360}
      role="group"
      label="Trace events"
      scrollToIndex={step > 0 ? step - 1 : -1}
      onRange={onRange}
      renderRow={(_, i) => (
        <EventRow
          event={loaded.get(Math.floor(i / EVENTS_PAGE))?.[i % EVENTS_PAGE]}
          step={step}
          onSeek={onSeek}
        />
      )}
    />
  )
}

/**
 * The matches of a filter, asked of the server MATCHES_PAGE at a time while the list is scrolled to
 * their end.
 */
function useMatches(runId: string, q: string, edge: number) {
  return useInfiniteQuery({
    queryKey: runKeys.eventsMatching(runId, q, edge),
    queryFn: ({ pageParam }) =>
      apiFetch<EventsRange>(
        `/api/runs/${encodeURIComponent(runId)}/events?${new URLSearchParams({ from: String(pageParam), limit: String(MATCHES_PAGE), q }).toString()}`,
      ),
    initialPageParam: 0,
    getNextPageParam: (last) => last.next ?? undefined,
    staleTime: Infinity,
  })
}

/** "n of total events" once every match is known, "n+ of total" while more may follow. */
function FilteredCount({
  runId,
  q,
  total,
  edge,
}: {
  runId: string
  q: string
  total: number
  edge: number
}) {
  const matches = useMatches(runId, q, edge)
  const n = matches.data?.pages.reduce((sum, page) => sum + page.events.length, 0) ?? 0
  if (matches.data === undefined) return <span className="muted">filtering {total} events…</span>
  return (
    <span className="muted">
      {matches.hasNextPage ? `${n}+ of ${total} events` : `${n} of ${total} events`}
    </span>
  )
}

function FilteredLog({
  runId,
  q,
  total,
  edge,
  step,
  onSeek,
}: {
  runId: string
  q: string
  total: number
  edge: number
  step: number
  onSeek: (step: number) => void
}) {
  const matches = useMatches(runId, q, edge)
  const shown = useMemo(
    () => matches.data?.pages.flatMap((page) => page.events) ?? [],
    [matches.data],
  )
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = matches
  const onRange = useCallback(
    (_start: number, end: number) => {
      if (end >= shown.length - 20 && hasNextPage && !isFetchingNextPage) void fetchNextPage()
    },
    [shown.length, hasNextPage, isFetchingNextPage, fetchNextPage],
  )
  if (matches.data === undefined) return <Empty>Filtering…</Empty>
  if (shown.length === 0)
    return <Empty>{total === 0 ? 'No events yet.' : 'No event matches the filter.'}</Empty>
  return (
    <VirtualList
      items={shown}
      rowHeight={ROW_HEIGHT}
      height={360}
      role="group"
      label="Trace events"
      scrollToIndex={shown.findIndex((e) => e.step === step)}
      onRange={onRange}
      renderRow={(event) => <EventRow event={event} step={step} onSeek={onSeek} />}
    />
  )
}

import { useEffect } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { RunView, TraceEvent } from '@cutover/core/contracts'
import { eventsQuery, runQuery } from './queries.ts'
import { runKeys } from './queryKeys.ts'

/** How often streamed events are flushed into the cache: one re-render per flush, not per event. */
const FLUSH_MS = 200

/**
 * The trace of a run. A finished run's trace is fetched once as JSON; a running run's trace is
 * streamed over SSE into the same cache key, batched so a 20,000-event stream re-renders a few
 * times a second. `Last-Event-ID` is handled by EventSource itself when the connection drops.
 */
export function useRunTrace(
  id: string,
  run: RunView | undefined,
  options: { defer?: boolean } = {},
) {
  const client = useQueryClient()
  const live = run?.status === 'running'
  // `defer` lets the first step view (what the user looks at) go ahead of a multi-megabyte trace
  const query = useQuery({
    ...eventsQuery(id),
    enabled: run !== undefined && !live && !options.defer,
  })

  useEffect(() => {
    if (!live) return
    const key = eventsQuery(id).queryKey
    const source = new EventSource(`/api/runs/${encodeURIComponent(id)}/events`)
    let buffer: TraceEvent[] = []
    const flush = () => {
      if (buffer.length === 0) return
      const incoming = buffer
      buffer = []
      client.setQueryData(key, (old) => {
        const events = old?.events ?? []
        const last = events.at(-1)?.step ?? 0
        // a reconnect replays from Last-Event-ID; drop anything already held
        const fresh = incoming.filter((e) => e.step > last)
        return { events: fresh.length ? [...events, ...fresh] : events }
      })
    }
    const timer = window.setInterval(flush, FLUSH_MS)
    source.addEventListener('trace', (message) => {
      buffer.push(JSON.parse((message as MessageEvent<string>).data) as TraceEvent)
    })
    source.addEventListener('end', (message) => {
      flush()
      source.close()
      const final = JSON.parse((message as MessageEvent<string>).data) as RunView
      client.setQueryData(runQuery(id).queryKey, final)
      void client.invalidateQueries({ queryKey: runKeys.list() })
    })
    source.onerror = () => {
      // EventSource retries on its own; after the server closed the stream for good, refetch the
      // run
      if (source.readyState === EventSource.CLOSED)
        void client.invalidateQueries({ queryKey: runQuery(id).queryKey })
    }
    return () => {
      window.clearInterval(timer)
      source.close()
      flush()
    }
  }, [client, id, live])

  return {
    events: query.data?.events ?? null,
    live,
    status: live ? ('success' as const) : query.status,
    error: query.error,
  }
}

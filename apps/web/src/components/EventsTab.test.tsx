// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { EventsRange, TraceEvent } from '@cutover/core/contracts'
import { filterEvents } from '@cutover/core/contracts'
import type * as Client from '../api/client.ts'

type ClientModule = typeof Client
const apiFetch = vi.fn()
vi.mock('../api/client.ts', async (original) => ({
  ...(await original<ClientModule>()),
  apiFetch: (...args: unknown[]) => apiFetch(...args),
}))
const { EventsTab, EVENTS_PAGE } = await import('./EventsTab.tsx')

/** A long trace: 3,000 events, every 100th a refused stale request. */
const TRACE: TraceEvent[] = Array.from(
  { length: 3000 },
  (_, i) =>
    ({
      step: i + 1,
      time_ms: i,
      phase: 'run',
      from: 'agent',
      to: 'policy_model',
      type: 'model.request',
      payload: { rollout_id: `r${i % 7}` },
      outcome: (i + 1) % 100 === 0 ? 'stale_attempt' : 'ok',
    }) as unknown as TraceEvent,
)

/** The server's range: events after `from`, at most `limit`, filtered by `q`. */
function answer(path: string): EventsRange {
  const query = new URLSearchParams(path.slice(path.indexOf('?') + 1))
  const from = Number(query.get('from') ?? 0)
  const limit = Number(query.get('limit') ?? 1000)
  const q = query.get('q') ?? ''
  if (q === '')
    return {
      from,
      total: TRACE.length,
      events: TRACE.slice(from, from + limit),
      next: from + limit < TRACE.length ? from + limit : null,
    }
  const events = filterEvents(TRACE.slice(from), q).slice(0, limit)
  const last = events.at(-1)?.step
  return {
    from,
    total: TRACE.length,
    events,
    next: events.length === limit && last !== undefined ? last : null,
  }
}

beforeEach(() => {
  apiFetch.mockReset()
  apiFetch.mockImplementation(async (path: string) => answer(path))
})
afterEach(cleanup)

const renderTab = (step: number, onSeek = vi.fn()) =>
  render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <EventsTab runId="run1" total={TRACE.length} filterEdge={-1} step={step} onSeek={onSeek} />
    </QueryClientProvider>,
  )

describe('the Events tab', () => {
  it('[events-log] asks the server for the page of the rows in view, never the whole trace; a row seeks to its step', async () => {
    const onSeek = vi.fn()
    renderTab(1_234, onSeek)
    expect(screen.getByText('3000 events')).toBeTruthy()
    const current = await screen.findByRole('button', { current: 'step' })
    expect(current.getAttribute('data-step')).toBe('1234')
    const paths = apiFetch.mock.calls.map(([path]) => String(path))
    expect(paths.every((p) => p.startsWith('/api/runs/run1/events?'))).toBe(true)
    expect(paths).toContain(`/api/runs/run1/events?from=${2 * EVENTS_PAGE}&limit=${EVENTS_PAGE}`)
    fireEvent.click(screen.getByText('1236').closest('button') as HTMLElement)
    expect(onSeek).toHaveBeenCalledWith(1236)
  })

  it('[events-log] a filter is answered by the server, its matches counted as "n of total"', async () => {
    renderTab(0)
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter events' }), {
      target: { value: '  STALE_attempt ' },
    })
    expect(await screen.findByText('30 of 3000 events')).toBeTruthy()
    expect(apiFetch.mock.calls.map(([path]) => String(path))).toContain(
      '/api/runs/run1/events?from=0&limit=1000&q=stale_attempt',
    )
    const rows = screen.getAllByRole('button').filter((b) => b.classList.contains('event-row'))
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.every((row) => row.classList.contains('is-refused'))).toBe(true)
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter events' }), {
      target: { value: 'no-such-word' },
    })
    expect(await screen.findByText('No event matches the filter.')).toBeTruthy()
  })
})

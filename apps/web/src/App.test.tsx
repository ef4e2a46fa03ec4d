// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { useEffect } from 'react'
import type { RunView } from '@cutover/core/contracts'
import { filterEvents, runSummary } from '@cutover/core/contracts'
import type * as Client from './api/client.ts'
import { ALL_PASS, TRACE, sessionsAnswer, sessionsView, stepView } from './test/fixtures.ts'

type ClientModule = typeof Client
const apiFetch = vi.fn()
vi.mock('./api/client.ts', async (original) => ({
  ...(await original<ClientModule>()),
  apiFetch: (...args: unknown[]) => apiFetch(...args),
}))
// mermaid needs a real layout engine; the diagram itself is covered by the e2e suite
vi.mock('./components/MermaidDiagram.tsx', () => ({
  // the highlighted message (index among the message lines) gets the marker the real diagram draws
  MermaidDiagram: function Drawn({
    source,
    highlight,
    onSettled,
  }: {
    source: string
    highlight: number
    onSettled?: () => void
  }) {
    // drawn once mounted (the real one settles after mermaid's render)
    useEffect(() => onSettled?.(), [source, onSettled])
    return (
      <pre data-testid="sequence-diagram">
        {source
          .split('\n')
          .map((line, i, all) =>
            all.slice(0, i).filter((l) => l.includes('->>')).length === highlight &&
            line.includes('->>')
              ? line.replace(': ', ': ▶ ')
              : line,
          )
          .join('\n')}
      </pre>
    )
  },
  preloadMermaid: () => {},
}))
const { App } = await import('./App.tsx')
const { ApiError } = await import('./api/client.ts')

const RUN: RunView = {
  id: 'run1',
  kind: 'simulated',
  scenario: 'happy-path',
  seed: '7',
  rollouts: 3,
  deadline_ms: 100,
  faults: [],
  inert_faults: [],
  status: 'complete',
  created_at: '2026-01-01T00:00:00Z',
  events: TRACE.length,
  outcome: 'completed',
  checkpoints: [],
  damaged: [],
  invariants: ALL_PASS,
  failures: [],
}

function renderAt(url: string) {
  window.history.replaceState(null, '', url)
  return render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <App />
    </QueryClientProvider>,
  )
}

beforeEach(() => {
  apiFetch.mockReset()
  apiFetch.mockImplementation(async (path: string) => {
    if (path === '/api/runs/run1') return RUN
    if (path === '/api/runs/run1/events') return { events: TRACE }
    if (path === '/api/runs/run1/summary') return runSummary(TRACE)
    if (path.startsWith('/api/runs/run1/events?')) {
      // the server's range: events after `from`, at most `limit`, filtered by `q`
      const query = new URLSearchParams(path.slice(path.indexOf('?') + 1))
      const from = Number(query.get('from') ?? 0)
      const matching = filterEvents(TRACE.slice(from), query.get('q') ?? '').slice(
        0,
        Number(query.get('limit') ?? 1000),
      )
      return { from, total: TRACE.length, events: matching, next: null }
    }
    const step = /^\/api\/runs\/run1\/steps\/(\d+)$/.exec(path)
    if (step) return stepView(Number(step[1]))
    const rows = sessionsAnswer(path, () => sessionsView(0).sessions)
    if (rows) return rows
    if (path.startsWith('/api/runs/run1/sessions/'))
      return {
        step: 3,
        session: sessionsView(3).sessions[0],
        state: { counter: 2 },
        prepare: { counter: 1 },
      }
    throw new ApiError(404, 'run_not_found', `no run at ${path}`)
  })
})
afterEach(cleanup)

describe('run page', () => {
  it('[permalink] opening a run URL shows that step, tab and session', async () => {
    renderAt('/runs/run1?step=3&tab=sessions&session=r0.a0')
    expect((await screen.findByTestId('step-counter')).textContent).toBe('step 3 / 7')
    expect(screen.getByRole('tab', { name: 'Sessions' }).getAttribute('aria-selected')).toBe('true')
    expect(await screen.findByText('▶ agent.prepare', { exact: false })).toBeTruthy()
    expect(await screen.findByRole('region', { name: 'Session r0.a0' })).toBeTruthy()
  })

  it('[permalink] stepping with the keyboard and changing tab rewrite the URL', async () => {
    renderAt('/runs/run1?step=3')
    await screen.findByText('step 3 / 7')
    act(() => {
      fireEvent.keyDown(document.body, { key: 'ArrowRight' })
    })
    expect(await screen.findByText('step 4 / 7')).toBeTruthy()
    expect(window.location.search).toBe('?step=4')
    act(() => {
      fireEvent.keyDown(document.body, { key: 'End' })
    })
    expect(window.location.search).toBe('?step=7')
    fireEvent.click(screen.getByRole('tab', { name: 'Events' }))
    expect(window.location.search).toBe('?step=7&tab=events')
    expect(await screen.findByTestId('events-log')).toBeTruthy()
  })

  it('[first-render] the step view and the diagram come first; the session rows are asked after the step view, and the whole trace never (the summary stands for it)', async () => {
    renderAt('/runs/run1?step=3')
    expect(await screen.findByText('count 2')).toBeTruthy()
    const paths = apiFetch.mock.calls.map(([path]) => String(path))
    const at = (path: string) => paths.indexOf(path)
    expect(at('/api/runs/run1/steps/3')).toBeGreaterThan(-1)
    // the rows in view, a window of them (sorted and filtered by the server)
    const rows = paths.findIndex((p) =>
      p.startsWith('/api/runs/run1/sessions?step=3&offset=0&limit=100&'),
    )
    expect(rows).toBeGreaterThan(at('/api/runs/run1/steps/3'))
    await vi.waitFor(() => expect(at('/api/runs/run1/summary')).toBeGreaterThan(-1))
    expect(at('/api/runs/run1/events')).toBe(-1)
    // the step view carries no session rows: the Sessions tab's rows are their own view
    expect(
      paths
        .filter((p) => p.includes('/sessions?'))
        .every((p) => p.startsWith('/api/runs/run1/sessions?step=')),
    ).toBe(true)
  })

  it('[keyboard] arrows typed into a text field do not move the step', async () => {
    renderAt('/runs/run1?step=2&tab=events')
    const filter = await screen.findByRole('searchbox', { name: 'Filter events' })
    fireEvent.keyDown(filter, { key: 'ArrowRight' })
    fireEvent.keyDown(filter, { key: 'End' })
    expect(screen.getByTestId('step-counter').textContent).toBe('step 2 / 7')
  })

  it('[errors] an unknown run shows the API error code and message', async () => {
    renderAt('/runs/nope')
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('run_not_found')
    expect(alert.textContent).toContain('no run at /api/runs/nope')
  })
})

// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { useState } from 'react'
import type { RunView } from '@cutover/core/contracts'
import { runSummary } from '@cutover/core/contracts'
import type * as Client from '../api/client.ts'
import type { InspectorView } from '../router/route.ts'
import { ALL_PASS, TRACE, sessionsAnswer, sessionsView, stepView } from '../test/fixtures.ts'

type ClientModule = typeof Client
const apiFetch = vi.fn()
vi.mock('../api/client.ts', async (original) => ({
  ...(await original<ClientModule>()),
  apiFetch: (...args: unknown[]) => apiFetch(...args),
}))
vi.mock('./MermaidDiagram.tsx', () => ({
  // the highlighted message (index among the message lines) gets the marker the real diagram draws
  MermaidDiagram: ({ source, highlight }: { source: string; highlight: number }) => (
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
  ),
  preloadMermaid: () => {},
}))
const { RunInspector } = await import('./RunInspector.tsx')

const RUNNING: RunView = {
  id: 'live1',
  kind: 'simulated',
  scenario: 'happy-path',
  seed: '0',
  rollouts: 3,
  deadline_ms: 100,
  faults: [],
  inert_faults: [],
  status: 'running',
  created_at: '2026-01-01T00:00:00Z',
  events: 0,
  outcome: null,
  checkpoints: [],
  damaged: [],
  invariants: ALL_PASS,
  failures: [],
}

function Harness() {
  const [view, setView] = useState<InspectorView>({ step: null, tab: 'sessions', session: null })
  return <RunInspector runId="live1" view={view} onView={setView} />
}

/** The events the server has streamed so far: its summary answers at this edge. */
let streamed = 0

const push = async (count: number) => {
  streamed += count
  // the summary of a running run is asked again every 250 ms
  await act(async () => {
    await vi.advanceTimersByTimeAsync(300)
  })
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true })
  streamed = 0
  apiFetch.mockReset()
  apiFetch.mockImplementation(async (path: string) => {
    if (path === '/api/runs/live1') return RUNNING
    if (path === '/api/runs/live1/summary') return runSummary(TRACE.slice(0, streamed))
    const step = /\/steps\/(\d+)$/.exec(path)
    if (step) return stepView(Number(step[1]))
    const rows = sessionsAnswer(path, () => sessionsView(0).sessions)
    if (rows) return rows
    throw new Error(`unexpected ${path}`)
  })
})
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

describe('live runs', () => {
  it('[freeze] the view follows the live edge until the user steps; then new events do not move it', async () => {
    render(
      <QueryClientProvider
        client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
      >
        <Harness />
      </QueryClientProvider>,
    )
    await screen.findByText('● following live')
    await push(3)
    expect((await screen.findByText('step 3 / 3')).textContent).toBe('step 3 / 3')

    fireEvent.keyDown(document.body, { key: 'ArrowLeft' })
    expect(await screen.findByText('step 2 / 3')).toBeTruthy()
    await push(3)
    expect(await screen.findByText('step 2 / 6')).toBeTruthy()
    const resume = screen.getByRole('button', { name: /frozen · 4 new → follow live/ })

    fireEvent.click(resume)
    expect(await screen.findByText('step 6 / 6')).toBeTruthy()
    expect(screen.getByText('● following live')).toBeTruthy()
  })
})

// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import type { RunView, TraceEvent } from '@cutover/core/contracts'
import type * as Client from '../api/client.ts'
import { ALL_PASS, stepView } from '../test/fixtures.ts'

type ClientModule = typeof Client
const apiFetch = vi.fn()
vi.mock('../api/client.ts', async (original) => ({
  ...(await original<ClientModule>()),
  apiFetch: (...args: unknown[]) => apiFetch(...args),
}))
vi.mock('../components/MermaidDiagram.tsx', () => ({
  MermaidDiagram: ({ source, highlight }: { source: string; highlight: number }) => (
    <pre data-testid="sequence-diagram" data-highlight={highlight}>
      {source}
    </pre>
  ),
  preloadMermaid: () => {},
}))
const { GenerationCutDemoPage } = await import('./GenerationCutDemoPage.tsx')

const wrap = (children: ReactNode) => (
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
    {children}
  </QueryClientProvider>
)

const preset = (name: string, cut_mode?: string) => ({
  name,
  title: name,
  narrative: '',
  config: { rollouts: 9, deadline_ms: 100, ...(cut_mode && { cut_mode }) },
  faults: [],
})
const SCENARIOS = {
  scenarios: [preset('straggler-retirement'), preset('generation-safe-cut', 'generation-safe')],
}
const run = (
  id: string,
  scenario: string,
  seed: string,
  events: number,
  extra: Partial<RunView> = {},
): RunView =>
  ({
    id,
    scenario,
    seed,
    rollouts: 9,
    deadline_ms: 100,
    faults: [],
    inert_faults: [],
    status: 'complete',
    created_at: '2026-01-01T00:00:00Z',
    events,
    outcome: 'completed',
    checkpoints: [],
    damaged: [],
    invariants: ALL_PASS,
    failures: [],
    ...extra,
  }) as RunView

const ev = (step: number, type: string, payload: Record<string, unknown> = {}): TraceEvent =>
  ({
    step,
    time_ms: step,
    phase: 'prepare',
    from: 'policy_model',
    to: 'generation_worker',
    type,
    payload: { rollout_id: 'r0', attempt_index: 0, ...payload },
    outcome: 'ok',
  }) as unknown as TraceEvent
const TRACE_A = [
  ev(1, 'run.dispatch'),
  ev(2, 'rollout.retired'),
  ev(3, 'run.dispatch', { attempt_index: 1 }),
  ev(4, 'run.complete', { attempt_index: 1 }),
]
const TRACE_B = [
  ev(1, 'run.dispatch'),
  ev(2, 'generation.cut', { model_call_id: 'p3', prefix_token_count: 212 }),
  ev(3, 'generation.cut_ack', {
    model_call_id: 'p3',
    disposition: 'durable_prefix',
    cut_kind: 'active_prefix',
    prefix_token_count: 212,
  }),
  ev(4, 'generation.continue', {
    attempt_index: 1,
    model_call_id: 'p5',
    cut_model_call_id: 'p3',
    prefix_token_count: 212,
    prefix_delivery: 'staged',
    continuation_token_count: 88,
  }),
  ev(5, 'run.complete', { attempt_index: 1 }),
  ev(6, 'run.complete', { rollout_id: 'r1' }),
]

afterEach(() => {
  cleanup()
  window.history.replaceState(null, '', '/')
})

describe('the generation-cut demo', () => {
  beforeEach(() => {
    apiFetch.mockReset()
  })

  it('[demo-pair] without runs, starts the generation-safe run first and the whole-request run with its seed, and puts both ids in the URL', async () => {
    apiFetch.mockImplementation(async (path: string, init?: RequestInit) => {
      if (path === '/api/scenarios') return SCENARIOS
      if (path === '/api/runs' && init?.method === 'POST') {
        const body = JSON.parse(String(init.body)) as { scenario: string; seed?: string }
        return run(
          body.scenario === 'generation-safe-cut' ? 'runB' : 'runA',
          body.scenario,
          body.seed ?? '0',
          0,
          { status: 'running' },
        )
      }
      if (path === '/api/runs')
        return { runs: [run('old', 'straggler-retirement', '5', 9, { rollouts: 30 })] }
      throw new Error(`unexpected ${path}`)
    })
    render(wrap(<GenerationCutDemoPage a={null} b={null} step={null} />))
    await waitFor(() => expect(window.location.search).toBe('?a=runA&b=runB&step=0'))
    const posts = apiFetch.mock.calls
      .filter(
        ([path, init]) =>
          path === '/api/runs' && (init as RequestInit | undefined)?.method === 'POST',
      )
      .map(([, init]) => JSON.parse(String((init as RequestInit).body)))
    expect(posts).toEqual([
      { scenario: 'generation-safe-cut' },
      { scenario: 'straggler-retirement', seed: '0' },
    ])
  })

  it('[demo-step] one cursor steps both runs, each clamped to its own length, with each straggler’s fate', async () => {
    apiFetch.mockImplementation(async (path: string) => {
      if (path === '/api/runs/A') return run('A', 'straggler-retirement', '7', TRACE_A.length)
      if (path === '/api/runs/B')
        return run('B', 'generation-safe-cut', '7', TRACE_B.length, { cut_mode: 'generation-safe' })
      if (path === '/api/runs/A/events') return { events: TRACE_A }
      if (path === '/api/runs/B/events') return { events: TRACE_B }
      const step = /^\/api\/runs\/[AB]\/steps\/(\d+)$/.exec(path)
      if (step) return stepView(Number(step[1]))
      if (/\/lineage\?step=/.test(path)) return { rollouts: [] }
      throw new Error(`unexpected ${path}`)
    })
    window.history.replaceState(null, '', '/demo/generation-cut?a=A&b=B&step=6')
    render(wrap(<GenerationCutDemoPage a="A" b="B" step={6} />))
    expect((await screen.findByTestId('step-counter')).textContent).toBe('step 6 / 6')
    const [whole, safe] = screen.getAllByTestId('demo-panel')
    expect(within(whole as HTMLElement).getByTestId('panel-step').textContent).toBe('step 4 / 4')
    expect(within(safe as HTMLElement).getByTestId('panel-step').textContent).toBe('step 6 / 6')
    expect(within(whole as HTMLElement).getByTestId('straggler-fate').textContent).toContain(
      'sacrificed at step 2',
    )
    const fate = within(safe as HTMLElement).getByTestId('straggler-fate').textContent
    expect(fate).toContain('its call p3 is cut at token 212')
    expect(fate).toContain('continues from token 212 under attempt 1 at step 4')
    await waitFor(() =>
      expect(within(whole as HTMLElement).getByTestId('narrative').textContent).toMatch(
        /^\(This run ended at step 4; its last step:\) /,
      ),
    )
    // the jump buttons move the one cursor (the URL) for both
    fireEvent.click(screen.getByRole('button', { name: 'the cut at token 212 (step 2)' }))
    expect(window.location.search).toBe('?a=A&b=B&step=2')
    fireEvent.click(screen.getByRole('button', { name: 'the continuation (step 4)' }))
    expect(window.location.search).toBe('?a=A&b=B&step=4')
    fireEvent.click(screen.getByRole('button', { name: 'the retirement (step 2)' }))
    expect(window.location.search).toBe('?a=A&b=B&step=2')
  })
})

// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { RunView } from '@cutover/core/contracts'
import type * as Client from '../api/client.ts'
import { ALL_PASS } from '../test/fixtures.ts'

type ClientModule = typeof Client
const apiFetch = vi.fn()
vi.mock('../api/client.ts', async (original) => ({
  ...(await original<ClientModule>()),
  apiFetch: (...args: unknown[]) => apiFetch(...args),
}))
const { RunList, faultsCell } = await import('./RunList.tsx')

const RUN: RunView = {
  id: 'run1',
  kind: 'simulated',
  scenario: 'corrupt-snapshot',
  seed: '7',
  rollouts: 9,
  deadline_ms: 100,
  faults: [{ kind: 'corrupt_file', namespace: 'resources', index: 0 }],
  inert_faults: [],
  status: 'complete',
  created_at: '2026-01-01T00:00:00.000Z',
  events: 200,
  outcome: 'completed',
  checkpoints: [],
  damaged: ['runs/run1/ck-1'],
  invariants: ALL_PASS,
  failures: [],
}
afterEach(cleanup)

describe('runs list', () => {
  it('[runs] the faults column says which runs carry faults, damaged checkpoints or a bug', () => {
    expect(faultsCell(RUN)).toBe('corrupt_file · 1 damaged checkpoint')
    expect(faultsCell({ ...RUN, faults: [], damaged: [], bug: 'call-ids-reused' })).toBe(
      'bug: call-ids-reused',
    )
    expect(faultsCell({ ...RUN, faults: [], damaged: [] })).toBe('none')
  })

  it('[api.run-digest] [runs] a damaged run is listed with its status and why, and the list does not break on it', async () => {
    const damaged: RunView = {
      ...RUN,
      id: 'run2',
      status: 'damaged',
      outcome: null,
      damaged: [],
      faults: [],
      error: 'run.json does not match its sha256: its content changed after it was written',
    }
    apiFetch.mockImplementation(async (path: string) =>
      path === '/api/runs' ? { runs: [damaged, RUN] } : null,
    )
    render(
      <QueryClientProvider
        client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
      >
        <RunList />
      </QueryClientProvider>,
    )
    const badge = await screen.findByText('damaged', { selector: '.badge' })
    expect(badge.getAttribute('title')).toMatch(/does not match its sha256/)
    expect(screen.getByText('complete', { selector: '.badge' })).toBeTruthy()
  })

  it('[runs] delete asks first; "Keep" keeps the run and nothing is sent', async () => {
    apiFetch.mockImplementation(async (path: string) =>
      path === '/api/runs' ? { runs: [RUN] } : null,
    )
    render(
      <QueryClientProvider
        client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
      >
        <RunList />
      </QueryClientProvider>,
    )
    fireEvent.click(await screen.findByRole('button', { name: 'Delete run run1' }))
    fireEvent.click(screen.getByRole('button', { name: 'Keep' }))
    expect(
      apiFetch.mock.calls.some(
        ([, init]) => (init as RequestInit | undefined)?.method === 'DELETE',
      ),
    ).toBe(false)
    fireEvent.click(screen.getByRole('button', { name: 'Delete run run1' }))
    fireEvent.click(screen.getByRole('button', { name: 'Yes, delete run run1' }))
    await waitFor(() =>
      expect(
        apiFetch.mock.calls.some(
          ([, init]) => (init as RequestInit | undefined)?.method === 'DELETE',
        ),
      ).toBe(true),
    )
  })

  it('[runs] every row names its kind: a run recorded by cutover fleet "processes", a recorded one "recorded from a real controller"', async () => {
    apiFetch.mockImplementation(async (path: string) =>
      path === '/api/runs'
        ? {
            runs: [
              RUN,
              { ...RUN, id: 'run2', kind: 'fleet', scenario: 'straggler-retirement' },
              { ...RUN, id: 'run3', kind: 'recorded' },
            ],
          }
        : null,
    )
    render(
      <QueryClientProvider
        client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
      >
        <RunList />
      </QueryClientProvider>,
    )
    await screen.findAllByTestId('run-kind')
    const kinds = screen
      .getAllByTestId('run-kind')
      .map((m) => [m.closest('tr')?.getAttribute('data-run'), m.textContent])
    expect(kinds).toEqual(
      expect.arrayContaining([
        ['run1', 'simulated'],
        ['run2', 'processes'],
        ['run3', 'recorded from a real controller'],
      ]),
    )
  })
})

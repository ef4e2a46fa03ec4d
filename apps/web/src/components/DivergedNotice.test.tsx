// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { RunView } from '@cutover/core/contracts'
import type * as Client from '../api/client.ts'
import { ApiError } from '../api/client.ts'

type ClientModule = typeof Client
const apiFetch = vi.fn()
vi.mock('../api/client.ts', async (original) => ({
  ...(await original<ClientModule>()),
  apiFetch: (...args: unknown[]) => apiFetch(...args),
}))
const { DivergedNotice } = await import('./DivergedNotice.tsx')

afterEach(cleanup)

const run = {
  id: 'old1',
  scenario: 'straggler-retirement',
  seed: '7',
  rollouts: 9,
  deadline_ms: 300,
  faults: [{ kind: 'straggler', rollout: 'r3', extra_ms: 400 }],
} as unknown as RunView
const wrap = (error: Error | null) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <DivergedNotice run={run} error={error} />
    </QueryClientProvider>,
  )

describe('DivergedNotice', () => {
  it('[run_diverged] offers "Re-run with this build": a new run with the same config, opened in its place', async () => {
    apiFetch.mockResolvedValue({ id: 'new1', status: 'running' })
    wrap(
      new ApiError(
        409,
        'run_diverged',
        're-simulating run old1 diverged from its stored trace at step 4',
      ),
    )
    expect(screen.getByRole('alert').textContent).toContain('step 4')
    fireEvent.click(screen.getByRole('button', { name: 'Re-run with this build' }))
    await waitFor(() => expect(window.location.pathname).toBe('/runs/new1'))
    const [path, init] = apiFetch.mock.calls[0] as [string, RequestInit]
    expect(path).toBe('/api/runs')
    expect(JSON.parse(init.body as string)).toEqual({
      scenario: 'straggler-retirement',
      seed: '7',
      rollouts: 9,
      deadline_ms: 300,
      faults: run.faults,
    })
  })

  it('[run_diverged] renders nothing for other errors', () => {
    wrap(new ApiError(500, 'internal_error', 'boom'))
    expect(screen.queryByRole('alert')).toBeNull()
    cleanup()
    wrap(null)
    expect(screen.queryByRole('alert')).toBeNull()
  })
})

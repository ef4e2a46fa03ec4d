// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, screen } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import type { SessionsView } from '@cutover/core/contracts'
import type * as Client from '../api/client.ts'
import { sessionRows } from '../test/fixtures.ts'

const apiFetch = vi.fn()
vi.mock('../api/client.ts', async (original) => ({ ...(await original<ClientModule>()), apiFetch: (...args: unknown[]) => apiFetch(...args) }))
type ClientModule = typeof Client
const { SessionsTab } = await import('./SessionsTab.tsx')
const { SESSION_ROWS_SETTLE_MS } = await import('../api/useSessionRows.ts')

const client = () => new QueryClient({ defaultOptions: { queries: { retry: false } } })
const tab = (step: number) => <SessionsTab runId="r" step={step} selected={null} onSelect={() => {}} onOpenTables={() => {}} onSeek={() => {}} />

/** The rows of step n: n sessions, so the count says which step is shown. */
const rowsAt = (step: number): SessionsView => ({ step, total: 50, sessions: sessionRows(step) })

beforeEach(() => {
  apiFetch.mockReset()
})
afterEach(cleanup)

describe('sessions tab', () => {
  it('[no-flicker] the rows are their own query; the previous step’s rows stay while the next step’s load, asked once the step settles', async () => {
    let release: (view: SessionsView) => void = () => {}
    apiFetch.mockImplementation(async (path: string) => {
      const step = Number(/^\/api\/runs\/r\/sessions\?step=(\d+)$/.exec(path)?.[1] ?? NaN)
      if (step === 3) return rowsAt(3)
      if (step === 5) return new Promise<SessionsView>((resolve) => (release = resolve))
      throw new Error(`unexpected ${path}`)
    })
    const queries = client()
    const wrap = (node: ReactNode) => <QueryClientProvider client={queries}>{node}</QueryClientProvider>
    const { rerender } = render(wrap(tab(3)))
    expect(await screen.findByText('3 sessions')).toBeTruthy()
    // two quick steps: only the one the user stops at is asked, and not at once
    rerender(wrap(tab(4)))
    rerender(wrap(tab(5)))
    expect(apiFetch.mock.calls.map(([p]) => p)).toEqual(['/api/runs/r/sessions?step=3'])
    await vi.waitFor(() => expect(apiFetch.mock.calls.map(([p]) => p)).toEqual(['/api/runs/r/sessions?step=3', '/api/runs/r/sessions?step=5']), { timeout: SESSION_ROWS_SETTLE_MS * 10 })
    // loading: the rows of step 3 are still there, marked busy
    expect(screen.getByText('3 sessions')).toBeTruthy()
    expect(document.querySelector('.sessions-tab')?.getAttribute('aria-busy')).toBe('true')
    release(rowsAt(5))
    expect(await screen.findByText('5 sessions')).toBeTruthy()
    expect(document.querySelector('.sessions-tab')?.getAttribute('aria-busy')).toBe('false')
  })

  it('[errors] rows that fail to load show the API error with a retry', async () => {
    const { ApiError } = await import('../api/client.ts')
    apiFetch.mockRejectedValue(new ApiError(400, 'invalid_request', 'step 9 is past the end of the run'))
    render(<QueryClientProvider client={client()}>{tab(9)}</QueryClientProvider>)
    expect((await screen.findByRole('alert')).textContent).toContain('invalid_request')
  })
})

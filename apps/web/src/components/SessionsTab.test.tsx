// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import type { SessionsWindow } from '@cutover/core/contracts'
import type * as Client from '../api/client.ts'
import { sessionRows, sessionsAnswer } from '../test/fixtures.ts'

const apiFetch = vi.fn()
vi.mock('../api/client.ts', async (original) => ({
  ...(await original<ClientModule>()),
  apiFetch: (...args: unknown[]) => apiFetch(...args),
}))
type ClientModule = typeof Client
const { SessionsTab } = await import('./SessionsTab.tsx')
const { SESSION_ROWS_SETTLE_MS } = await import('../api/useSettledStep.ts')
const { sessionsWindowOf } = await import('../api/useSessionWindow.ts')

const client = () => new QueryClient({ defaultOptions: { queries: { retry: false } } })
const tab = (step: number, selected: string | null = null) => (
  <SessionsTab
    runId="r"
    step={step}
    selected={selected}
    onSelect={() => {}}
    onOpenTables={() => {}}
    onSeek={() => {}}
  />
)

/**
 * The rows of step n: n sessions, so the count says which step is shown (and 10,000 at step
 * 10,000).
 */
const answer = (path: string) => sessionsAnswer(path, (step) => sessionRows(step))
/** The asked windows' query parameters. */
const asked = () =>
  apiFetch.mock.calls.map(([p]) => Object.fromEntries(new URLSearchParams(String(p).split('?')[1])))

beforeEach(() => {
  apiFetch.mockReset()
})
afterEach(cleanup)

describe('sessions tab', () => {
  it('[no-flicker] the rows in view are a window of their own query; the previous step’s stay while the next step’s load, asked once the step settles', async () => {
    let release: (view: SessionsWindow) => void = () => {}
    apiFetch.mockImplementation(async (path: string) => {
      if (path.includes('step=5&'))
        return new Promise<SessionsWindow>((resolve) => (release = resolve))
      if (path.includes('step=3&')) return answer(path)
      throw new Error(`unexpected ${path}`)
    })
    const queries = client()
    const wrap = (node: ReactNode) => (
      <QueryClientProvider client={queries}>{node}</QueryClientProvider>
    )
    const { rerender } = render(wrap(tab(3)))
    expect(await screen.findByText('3 sessions')).toBeTruthy()
    expect(asked()).toEqual([
      { step: '3', offset: '0', limit: '100', sort: 'rollout_id', dir: 'asc' },
    ])
    // two quick steps: only the one the user stops at is asked, and not at once
    rerender(wrap(tab(4)))
    rerender(wrap(tab(5)))
    expect(asked().map((q) => q['step'])).toEqual(['3'])
    await vi.waitFor(() => expect(asked().map((q) => q['step'])).toEqual(['3', '5']), {
      timeout: SESSION_ROWS_SETTLE_MS * 10,
    })
    // loading: the rows of step 3 are still there, marked busy
    expect(screen.getByText('3 sessions')).toBeTruthy()
    expect(document.querySelector('.sessions-tab')?.getAttribute('aria-busy')).toBe('true')
    release(answer('/api/runs/r/sessions?step=5&offset=0&limit=100') as SessionsWindow)
    expect(await screen.findByText('5 sessions')).toBeTruthy()
    expect(document.querySelector('.sessions-tab')?.getAttribute('aria-busy')).toBe('false')
  })

  it('[virtualised] 10,000 rows: only the window in view is asked; a scroll asks the window at the new offset, drawn at its place', async () => {
    apiFetch.mockImplementation(async (path: string) => answer(path))
    const { container } = render(
      <QueryClientProvider client={client()}>{tab(10_000)}</QueryClientProvider>,
    )
    expect(await screen.findByText('10000 sessions')).toBeTruthy()
    expect(container.querySelector('[role="table"]')?.getAttribute('aria-rowcount')).toBe('10001')
    expect(asked().every((q) => Number(q['limit']) <= 200)).toBe(true)
    const box = container.querySelector('.vlist') as HTMLElement
    box.scrollTop = 30 * 5_000
    fireEvent.scroll(box)
    await vi.waitFor(() =>
      expect(
        [...container.querySelectorAll('[data-session]')].map((el) =>
          el.getAttribute('data-session'),
        ),
      ).toContain('r5000.a0'),
    )
    expect(asked().at(-1)).toMatchObject({ offset: '4900', limit: '200' })
    // the row drawn at index 5,000 is the window's row 5,000
    expect(container.querySelector('[aria-rowindex="5002"]')?.getAttribute('data-session')).toBe(
      'r5000.a0',
    )
  })

  it('[sort] [filter] a header click and the filter are sent to the server; the count says how many of how many', async () => {
    apiFetch.mockImplementation(async (path: string) => answer(path))
    render(<QueryClientProvider client={client()}>{tab(30)}</QueryClientProvider>)
    expect(await screen.findByText('30 sessions')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: /Revision/ }))
    await vi.waitFor(() =>
      expect(screen.getByRole('columnheader', { name: /Revision/ }).getAttribute('aria-sort')).toBe(
        'ascending',
      ),
    )
    const revisions = () =>
      screen
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).queryAllByRole('cell')[4]?.textContent)
    await vi.waitFor(() => expect(revisions().slice(0, 3)).toEqual(['0', '0', '0']))
    expect(asked().at(-1)).toMatchObject({ sort: 'revision', dir: 'asc' })
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter sessions' }), {
      target: { value: 'retired' },
    })
    expect(await screen.findByText('5 of 30 sessions')).toBeTruthy()
    expect(asked().at(-1)).toMatchObject({ sort: 'revision', q: 'retired' })
  })

  it('[select] a selected session is asked with the window: the table scrolls to it, or says it does not exist at this step', async () => {
    apiFetch.mockImplementation(
      async (path: string) =>
        answer(path) ?? { step: 10_000, session: sessionRows(1)[0], state: null, prepare: null },
    )
    const { container, unmount } = render(
      <QueryClientProvider client={client()}>{tab(10_000, 'r7000.a0')}</QueryClientProvider>,
    )
    await vi.waitFor(() =>
      expect(
        container.querySelector('[data-session="r7000.a0"]')?.getAttribute('aria-selected'),
      ).toBe('true'),
    )
    expect(asked()[0]).toMatchObject({ session: 'r7000.a0' })
    unmount()
    render(<QueryClientProvider client={client()}>{tab(10, 'r0042.a0')}</QueryClientProvider>)
    expect(await screen.findByText(/does not exist at step 10/)).toBeTruthy()
  })

  it('[virtualised] a window is whole blocks covering the rows drawn', () => {
    expect(sessionsWindowOf(0, 0)).toEqual({ offset: 0, limit: 100 })
    expect(sessionsWindowOf(0, 19)).toEqual({ offset: 0, limit: 100 })
    expect(sessionsWindowOf(95, 120)).toEqual({ offset: 0, limit: 200 })
    expect(sessionsWindowOf(4994, 5019)).toEqual({ offset: 4900, limit: 200 })
  })

  it('[errors] rows that fail to load show the API error with a retry', async () => {
    const { ApiError } = await import('../api/client.ts')
    apiFetch.mockRejectedValue(
      new ApiError(400, 'invalid_request', 'step 9 is past the end of the run'),
    )
    render(<QueryClientProvider client={client()}>{tab(9)}</QueryClientProvider>)
    expect((await screen.findByRole('alert')).textContent).toContain('invalid_request')
  })
})

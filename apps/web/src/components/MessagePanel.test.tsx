// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { MessageView, TraceEvent } from '@cutover/core/contracts'
import type * as Client from '../api/client.ts'

type ClientModule = typeof Client
const apiFetch = vi.fn()
vi.mock('../api/client.ts', async (original) => ({
  ...(await original<ClientModule>()),
  apiFetch: (...args: unknown[]) => apiFetch(...args),
}))
const { MessagePanel } = await import('./MessagePanel.tsx')

const DIGEST = '3851bff1b31b604c9e6a2cb40a4c857a35c360a1b2c3d4e5f60718293a4b5c6d'
const VIEW = {
  step: 108,
  total: 250,
  event: {
    step: 108,
    time_ms: 172,
    phase: 'commit',
    from: 'agent',
    to: 'directory',
    type: 'directory.write',
    payload: { path: 'agent/r1.a0.json' },
    outcome: 'ok',
  } as unknown as TraceEvent,
  pair: { role: 'none', other: null, by: null },
  changes: [
    { participant: 'agent', field: 'phase', before: 'prepared', after: 'committed_paused' },
    { participant: 'agent', field: 'manifest_digest', before: null, after: DIGEST },
  ],
  session: null,
} as MessageView

function renderPanel(onClose = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <div>
        <input type="search" aria-label="Filter events" />
        <MessagePanel
          runId="run1"
          step={108}
          permalink="/runs/run1?step=108&message=1"
          onClose={onClose}
          onSeek={() => {}}
        />
      </div>
    </QueryClientProvider>,
  )
  return onClose
}

beforeEach(() => {
  apiFetch.mockReset()
  apiFetch.mockImplementation(async () => VIEW)
})
afterEach(cleanup)

describe('MessagePanel', () => {
  it('[message-panel] Esc closes it, as its Close button does; Esc typed into a field elsewhere does not', async () => {
    const onClose = renderPanel()
    await screen.findByTestId('message-payload')
    fireEvent.keyDown(screen.getByRole('searchbox', { name: 'Filter events' }), {
      key: 'Escape',
    })
    expect(onClose).not.toHaveBeenCalled()
    fireEvent.keyDown(document.body, { key: 'Escape' })
    expect(onClose).toHaveBeenCalledTimes(1)
    fireEvent.click(screen.getByRole('button', { name: 'Close the message panel' }))
    expect(onClose).toHaveBeenCalledTimes(2)
  })

  it('[message-panel] the state diff fits a side panel: a digest is shortened (whole in its tooltip), names wrap after an underscore', async () => {
    renderPanel()
    const diff = await screen.findByTestId('state-diff')
    const digest = [...diff.querySelectorAll<HTMLElement>('td.now')].find(
      (td) => td.title === DIGEST,
    )
    expect(digest?.textContent).toBe('3851bff1b31b…')
    const phase = [...diff.querySelectorAll<HTMLElement>('td.now')].find((td) =>
      td.textContent?.startsWith('committed_'),
    )
    expect(phase?.textContent).toBe('committed_paused')
    expect(phase?.querySelectorAll('wbr')).toHaveLength(1)
  })
})

// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import type { CheckpointView } from '@cutover/core/contracts'
import type * as Client from '../api/client.ts'

type ClientModule = typeof Client
const apiFetch = vi.fn()
const apiText = vi.fn()
vi.mock('../api/client.ts', async (original) => ({
  ...(await original<ClientModule>()),
  apiFetch: (...args: unknown[]) => apiFetch(...args),
  apiText: (...args: unknown[]) => apiText(...args),
}))
const { ManifestsTab } = await import('./ManifestsTab.tsx')

const wrap = (children: ReactNode) => (
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
    {children}
  </QueryClientProvider>
)

const SEG = 'token-store/segments/p3.seg-0.json'
const checkpoint: CheckpointView = {
  cid: 'ck-1',
  checkpoint_id: 'ck-1',
  path: 'runs/x/ck-1',
  valid: false,
  damaged: true,
  problems: [{ code: 'segment_mismatch', path: SEG, message: 'digest differs' }],
  files: [
    { path: 'checkpoint.json', bytes: 10, sha256: 'c'.repeat(64), status: 'ok' },
    { path: SEG, bytes: 20, sha256: 'd'.repeat(64), status: 'digest_mismatch' },
    { path: 'token-store/segments/p8.seg-0.json', bytes: 20, sha256: 'e'.repeat(64), status: 'ok' },
  ],
  segments: [
    {
      path: SEG,
      staging_key: 'tq/p3/seg-0',
      model_call_id: 'p3',
      segment: 0,
      token_count: 212,
      sha256: 'd'.repeat(64),
      status: 'digest_mismatch',
    },
    {
      path: 'token-store/segments/p8.seg-0.json',
      staging_key: 'tq/p8/seg-0',
      model_call_id: 'p8',
      segment: 0,
      token_count: 17,
      sha256: 'e'.repeat(64),
      status: 'ok',
    },
  ],
}

beforeEach(() => {
  apiFetch.mockReset()
  apiText.mockReset()
  apiFetch.mockImplementation(async (path: string) => {
    if (path === '/api/runs/x/checkpoints') return { checkpoints: [checkpoint] }
    throw new Error(`unexpected ${path}`)
  })
  apiText.mockResolvedValue('[1,2,3]')
})
afterEach(cleanup)

describe('token-store segments in the Manifests tab', () => {
  it('[manifest-segments] lists each segment with its token count and digest status; a click opens its file', async () => {
    render(wrap(<ManifestsTab runId="x" status="complete" />))
    const list = await screen.findByTestId('token-segments')
    expect(list.textContent).toContain('2 staged, 1 not matching')
    const items = within(list).getAllByRole('listitem')
    expect(
      items.map((li) => [li.getAttribute('data-call'), li.getAttribute('data-status')]),
    ).toEqual([
      ['p3', 'digest_mismatch'],
      ['p8', 'ok'],
    ])
    expect(items[0]?.textContent).toContain('212 tokens')
    expect(items[0]?.textContent).toContain('digest mismatch')
    expect(items[1]?.textContent).toContain(`digest ok · ${'e'.repeat(8)}…`)
    fireEvent.click(within(items[1] as HTMLElement).getByRole('button', { name: 'p8 seg-0' }))
    expect(
      await screen.findByRole('region', { name: 'File token-store/segments/p8.seg-0.json' }),
    ).toBeTruthy()
  })
})

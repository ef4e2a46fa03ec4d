// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import type * as Client from '../api/client.ts'
import { parseFaultsInput } from '@cutover/core/contracts'

type ClientModule = typeof Client
const apiFetch = vi.fn()
vi.mock('../api/client.ts', async (original) => ({
  ...(await original<ClientModule>()),
  apiFetch: (...args: unknown[]) => apiFetch(...args),
}))
const { NewRunForm } = await import('./NewRunForm.tsx')

const wrap = (children: ReactNode) => (
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
    {children}
  </QueryClientProvider>
)

beforeEach(() => {
  apiFetch.mockReset()
  apiFetch.mockImplementation(async (path: string, init?: RequestInit) => {
    if (path === '/api/scenarios') return { scenarios: [] }
    if (path === '/api/bugs')
      return {
        bugs: [
          { name: 'call-ids-reused', narrative: 'Ids are reused.', invariant: 'call-id-unique' },
          {
            name: 'egress-unfenced',
            narrative: 'Egress is not fenced.',
            invariant: 'egress-fenced',
            scenarios: ['completed-before-egress'],
          },
        ],
      }
    if (path === '/api/runs' && init?.method === 'POST') return { id: 'new1', status: 'running' }
    throw new Error(`unexpected ${path}`)
  })
})
afterEach(cleanup)

describe('fault list validation', () => {
  it('[faults] empty text keeps the scenario schedule; a valid list parses', () => {
    expect(parseFaultsInput('  ')).toEqual({ ok: true, faults: undefined })
    expect(
      parseFaultsInput(
        '[{"kind":"straggler","rollout":"r7","extra_ms":500},{"kind":"crash_after_write","k":3}]',
      ),
    ).toEqual({
      ok: true,
      faults: [
        { kind: 'straggler', rollout: 'r7', extra_ms: 500 },
        { kind: 'crash_after_write', k: 3 },
      ],
    })
  })

  it('[faults] names the entry and field of each problem', () => {
    const result = parseFaultsInput(
      '[{"kind":"straggler","rollout":"r7"},{"kind":"crash_after_write","k":0},{"kind":"meteor"}]',
    )
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.errors.some((e) => e.startsWith('fault 0.extra_ms:'))).toBe(true)
    expect(result.errors.some((e) => e.startsWith('fault 1.k:'))).toBe(true)
    expect(result.errors.some((e) => e.startsWith('fault 2.kind:'))).toBe(true)
  })

  it('[faults] refuses text that is not JSON, or not a list', () => {
    expect(parseFaultsInput('[{kind: straggler}]')).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/^not JSON/)],
    })
    expect(parseFaultsInput('{"kind":"straggler"}')).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/must be a JSON list/)],
    })
  })

  it('[faults] the form shows the errors and sends nothing until they are fixed', async () => {
    render(wrap(<NewRunForm />))
    fireEvent.change(screen.getByRole('textbox', { name: /Faults/ }), {
      target: { value: '[{"kind":"missing_worker"}]' },
    })
    expect(await screen.findByText(/fault 0\.worker:/)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Start run' }))
    expect(screen.getByText('Fix the fields marked above.')).toBeTruthy()
    expect(apiFetch.mock.calls.some(([path]) => path === '/api/runs')).toBe(false)

    fireEvent.change(screen.getByRole('textbox', { name: /Faults/ }), {
      target: { value: '[{"kind":"missing_worker","worker":1}]' },
    })
    fireEvent.change(screen.getByRole('textbox', { name: 'Seed' }), {
      target: { value: '1180591620717411303435' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Start run' }))
    await waitFor(() =>
      expect(apiFetch.mock.calls.some(([path]) => path === '/api/runs')).toBe(true),
    )
    const [, init] = apiFetch.mock.calls.find(([path]) => path === '/api/runs') as [
      string,
      RequestInit,
    ]
    expect(JSON.parse(String(init.body))).toEqual({
      scenario: 'happy-path',
      seed: '1180591620717411303435',
      faults: [{ kind: 'missing_worker', worker: 1 }],
    })
  })

  it('[seed] a seed that is not decimal digits is flagged beside the field', () => {
    render(wrap(<NewRunForm />))
    fireEvent.change(screen.getByRole('textbox', { name: 'Seed' }), { target: { value: '12a' } })
    expect(
      screen.getByText("takes a non-negative decimal integer of any size, got '12a'"),
    ).toBeTruthy()
  })

  it('[numbers] rollouts and deadline take the CLI’s rule and message: no 1e3, abc or 1.5; any-size seeds pass', async () => {
    render(wrap(<NewRunForm />))
    const rollouts = screen.getByRole('textbox', { name: 'Rollouts' })
    for (const bad of ['1e3', 'abc', '1.5', '0', '10001', '-3']) {
      fireEvent.change(rollouts, { target: { value: bad } })
      expect(screen.getByText(`takes an integer from 1 to 10000, got '${bad}'`)).toBeTruthy()
    }
    fireEvent.change(screen.getByRole('textbox', { name: /^Deadline/ }), {
      target: { value: '1e3' },
    })
    expect(screen.getByText("takes an integer from 0 to 3600000, got '1e3'")).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Start run' }))
    expect(apiFetch.mock.calls.some(([path]) => path === '/api/runs')).toBe(false)
    fireEvent.change(rollouts, { target: { value: '90' } })
    fireEvent.change(screen.getByRole('textbox', { name: /^Deadline/ }), { target: { value: '' } })
    fireEvent.change(screen.getByRole('textbox', { name: 'Seed' }), {
      target: { value: '9'.repeat(5000) },
    })
    expect(screen.getByTestId('faults-hint').textContent).toContain('"r00"…"r89"')
    expect(screen.getByRole('textbox', { name: /Faults/ }).getAttribute('placeholder')).toContain(
      '"r07"',
    )
    fireEvent.click(screen.getByRole('button', { name: 'Start run' }))
    await waitFor(() =>
      expect(apiFetch.mock.calls.some(([path]) => path === '/api/runs')).toBe(true),
    )
    const [, init] = apiFetch.mock.calls.find(([path]) => path === '/api/runs') as [
      string,
      RequestInit,
    ]
    expect(JSON.parse(String(init.body))).toEqual({
      scenario: 'happy-path',
      seed: '9'.repeat(5000),
      rollouts: 90,
    })
  })
})

describe('the fault schedule as editable chips', () => {
  it('[faults] the typed schedule shows as chips; removing one rewrites the list without it', async () => {
    render(wrap(<NewRunForm />))
    const field = screen.getByRole('textbox', { name: /Faults/ }) as HTMLTextAreaElement
    fireEvent.change(field, {
      target: {
        value:
          '[{"kind":"straggler","rollout":"r7","extra_ms":500},{"kind":"crash_after_write","k":3}]',
      },
    })
    expect(
      (await screen.findAllByTestId('fault-chip')).map((c) => c.getAttribute('data-kind')),
    ).toEqual(['straggler', 'crash_after_write'])
    fireEvent.click(screen.getByRole('button', { name: /^Remove this fault: straggler / }))
    expect(JSON.parse(field.value)).toEqual([{ kind: 'crash_after_write', k: 3 }])
    expect(screen.getAllByTestId('fault-chip').map((c) => c.getAttribute('data-kind'))).toEqual([
      'crash_after_write',
    ])
    fireEvent.click(screen.getByRole('button', { name: /^Remove this fault:/ }))
    // An explicit empty list: the run gets no faults at all (not the scenario's own schedule).
    expect(field.value).toBe('[]')
    expect(screen.queryAllByTestId('fault-chip')).toHaveLength(0)
  })
})

describe('the cut mode', () => {
  it('[cut-mode] the scenario’s own mode is the default and sends nothing; a chosen mode is sent as cut_mode', async () => {
    render(wrap(<NewRunForm />))
    const mode = screen.getByRole('combobox', { name: 'Cut mode' }) as HTMLSelectElement
    expect(mode.value).toBe('')
    expect([...mode.options].map((o) => o.value)).toEqual(['', 'whole-request', 'generation-safe'])
    fireEvent.change(mode, { target: { value: 'generation-safe' } })
    fireEvent.click(screen.getByRole('button', { name: 'Start run' }))
    await waitFor(() =>
      expect(apiFetch.mock.calls.some(([path]) => path === '/api/runs')).toBe(true),
    )
    const [, init] = apiFetch.mock.calls.find(([path]) => path === '/api/runs') as [
      string,
      RequestInit,
    ]
    expect(JSON.parse(String(init.body))).toEqual({
      scenario: 'happy-path',
      cut_mode: 'generation-safe',
    })
  })

  it('[bugs] a bug only some scenarios show names them, and says so when the chosen scenario is not one', async () => {
    render(wrap(<NewRunForm />))
    const select = screen.getByRole('combobox', { name: /Bug/ })
    await screen.findByRole('option', { name: /egress-unfenced/ })
    fireEvent.change(select, { target: { value: 'egress-unfenced' } })
    const narrative = document.querySelector('.bug-narrative') as HTMLElement
    expect(narrative.textContent).toContain(
      'egress-fenced fails — on completed-before-egress only.',
    )
    expect(narrative.textContent).toContain(
      'The scenario chosen above (happy-path) does not show it.',
    )
    fireEvent.change(select, { target: { value: 'call-ids-reused' } })
    expect((document.querySelector('.bug-narrative') as HTMLElement).textContent).toBe(
      'Ids are reused. Watch the Invariants tab: call-id-unique fails.',
    )
  })
})

// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import type { GenerationCutView } from '@cutover/core/contracts'
import { GenerationCuts } from './GenerationCuts.tsx'

afterEach(cleanup)

const cut: GenerationCutView = {
  model_call_id: 'p3',
  rollout_id: 'r0',
  attempt: 0,
  disposition: 'durable_prefix',
  cut_kind: 'active_prefix',
  staging_keys: ['tq/p3/seg-0'],
  prefix_token_count: 212,
  prefix_digest: 'a'.repeat(64),
  continued_by: 'p1',
  prefix_delivery: 'staged',
  continuation_token_count: 88,
  continuation_digest: 'b'.repeat(64),
  total_token_count: 300,
  cut_step: 41,
  continue_step: 97,
}

describe('generation cuts of a session', () => {
  it('[session-cut] shows the prefix and continuation lengths and digests, and what they add up to', () => {
    const onSeek = vi.fn()
    render(<GenerationCuts cuts={[cut]} onSeek={onSeek} />)
    const section = screen.getByRole('region', { name: 'Generation cuts' })
    const row = within(section).getAllByRole('listitem')[0] as HTMLElement
    expect(row.getAttribute('data-disposition')).toBe('durable_prefix')
    expect(within(row).getByTestId('prefix-length').textContent).toContain('212 tokens')
    expect(within(row).getByTestId('prefix-length').textContent).toContain(
      `sha256 ${'a'.repeat(12)}…`,
    )
    expect(within(row).getByTestId('prefix-length').textContent).toContain('tq/p3/seg-0')
    expect(within(row).getByTestId('continuation-length').textContent).toContain('88 tokens by p1')
    expect(within(row).getByTestId('continuation-length').textContent).toContain(
      `sha256 ${'b'.repeat(12)}…`,
    )
    expect(within(row).getByTestId('whole-length').textContent).toBe('300 tokens')
    fireEvent.click(within(row).getByRole('button', { name: 'step 97' }))
    expect(onSeek).toHaveBeenCalledWith(97)
  })

  it('[session-cut] a cut not continued yet says so; no cut, no section', () => {
    render(
      <GenerationCuts
        cuts={[
          {
            ...cut,
            continued_by: null,
            continuation_token_count: null,
            continuation_digest: null,
            total_token_count: null,
            continue_step: null,
          },
        ]}
      />,
    )
    expect(screen.getByTestId('continuation-length').textContent).toBe('not continued at this step')
    cleanup()
    const { container } = render(<GenerationCuts cuts={[]} />)
    expect(container.innerHTML).toBe('')
  })

  it('[inspect] post-mortem (a checkpoint directory): cut at token k, no step links, the continuation still to come', () => {
    const fromLedger: GenerationCutView = {
      ...cut,
      continued_by: null,
      prefix_delivery: null,
      continuation_token_count: null,
      continuation_digest: null,
      total_token_count: null,
      cut_step: 0,
      continue_step: null,
    }
    render(
      <GenerationCuts
        cuts={[
          fromLedger,
          {
            ...fromLedger,
            model_call_id: 'p4',
            disposition: 'durable_failure',
            cut_kind: null,
            staging_keys: [],
            prefix_token_count: 0,
            prefix_digest: null,
          },
        ]}
        postMortem
      />,
    )
    const [kept, failed] = screen.getAllByRole('listitem') as HTMLElement[]
    expect(within(kept as HTMLElement).getByText(/cut at token 212/)).toBeTruthy()
    expect(within(kept as HTMLElement).queryByRole('button')).toBeNull()
    expect(within(kept as HTMLElement).getByTestId('continuation-length').textContent).toContain(
      'continues under attempt N+1 after a restore',
    )
    expect(within(failed as HTMLElement).getByText(/no prefix kept/)).toBeTruthy()
  })
})

// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { INVARIANT_IDS } from '@cutover/core/contracts'
import { ALL_PASS } from '../test/fixtures.ts'
import { InvariantsTab } from './InvariantsTab.tsx'

afterEach(cleanup)

describe('invariants tab', () => {
  it('[invariants] a failure at this step names its first failing step and seeks there', () => {
    const onSeek = vi.fn()
    const failure = {
      id: 'manifest-last' as const,
      step: 117,
      message: 'checkpoint.json written before the aggregate manifest',
    }
    render(
      <InvariantsTab
        invariants={{ ...ALL_PASS, 'manifest-last': 'fail' }}
        failures={[failure]}
        runFailures={[failure]}
        step={130}
        onSeek={onSeek}
      />,
    )
    const row = screen.getByText('manifest-last').closest('li') as HTMLElement
    expect(row.getAttribute('data-status')).toBe('fail')
    expect(row.textContent).toContain('checkpoint.json written before the aggregate manifest')
    fireEvent.click(screen.getByRole('button', { name: 'first failing step 117 →' }))
    expect(onSeek).toHaveBeenCalledWith(117)
    expect(document.querySelectorAll('[data-status="pass"]')).toHaveLength(INVARIANT_IDS.length - 1)
  })

  it('[invariants] before its failing step an invariant passes, with a link to where it will fail', () => {
    const onSeek = vi.fn()
    render(
      <InvariantsTab
        invariants={ALL_PASS}
        failures={[]}
        runFailures={[{ id: 'equivalence', step: 222, message: 'r2 differs' }]}
        step={40}
        onSeek={onSeek}
      />,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Go to step 222 →' }))
    expect(onSeek).toHaveBeenCalledWith(222)
  })

  it('[bugs] a bug run leads with one sentence naming the first failure, its step and the bug, and seeks there', () => {
    const onSeek = vi.fn()
    const failure = {
      id: 'call-id-unique' as const,
      step: 188,
      message: 'model call id policy-call-000001 issued to r1.a1 was already issued to r0.a0',
    }
    const bug = {
      name: 'call-ids-reused' as const,
      narrative: 'The restored policy model starts its call-id counter again.',
      invariant: 'call-id-unique' as const,
    }
    render(
      <InvariantsTab
        invariants={ALL_PASS}
        failures={[]}
        runFailures={[failure]}
        step={10}
        onSeek={onSeek}
        bug={bug}
      />,
    )
    const lead = screen.getByTestId('first-failure')
    expect(lead.textContent).toContain(
      'call-id-unique first fails at step 188: model call id policy-call-000001',
    )
    expect(lead.textContent).toContain(
      'the bug call-ids-reused at work: the restored policy model starts',
    )
    fireEvent.click(screen.getByRole('button', { name: 'go to step 188 →' }))
    expect(onSeek).toHaveBeenCalledWith(188)
  })
})

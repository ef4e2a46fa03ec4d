// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { RECORDED_CHECK_IDS, UNCHECKABLE_INVARIANTS } from '@cutover/core/contracts'
import type { RecordedCheck, TraceEvent } from '@cutover/core/contracts'
import { RecordedChecksTab } from './RecordedChecksTab.tsx'
import { RecordedExchange } from './RecordedExchange.tsx'

afterEach(cleanup)

const checks: RecordedCheck[] = RECORDED_CHECK_IDS.map((id) =>
  id === 'control-accepted'
    ? {
        id,
        status: 'fail',
        step: 6,
        exchange: 6,
        message: 'agent POST /ng-control/v1/agent-checkpoint/prepare (exchange 6) answered 400',
      }
    : { id, status: 'not_observed', step: null, exchange: null, message: 'no commit was sent' },
)

describe('a recorded run in the run page', () => {
  it('[recorded.checks] the Invariants tab: each check with its verdict, the breaking exchange a link to its step, and what cannot be checked from outside', () => {
    const onSeek = vi.fn()
    render(<RecordedChecksTab checks={checks} step={2} onSeek={onSeek} />)
    const failing = document.querySelector('[data-check="control-accepted"]') as HTMLElement
    expect(failing.getAttribute('data-status')).toBe('fail')
    expect(failing.textContent).toContain('answered 400')
    fireEvent.click(screen.getByTestId('check-exchange'))
    expect(onSeek).toHaveBeenCalledWith(6)
    expect(document.querySelectorAll('[data-status="not_observed"]')).toHaveLength(
      RECORDED_CHECK_IDS.length - 1,
    )
    expect(screen.getByTestId('check-exchange').textContent).toContain('(later)')
    for (const u of UNCHECKABLE_INVARIANTS)
      expect(screen.getByTestId('unchecked-invariants').textContent).toContain(u.id)
  })

  it('[recorded.trace] the Events tab shows the exchange whole: route, status, request and answer, a truncated body with its size and digest', () => {
    const event = {
      step: 3,
      time_ms: 10,
      phase: 'prepare',
      from: 'controller',
      to: 'agent',
      type: 'agent.prepare',
      outcome: 'invalid_request',
      payload: {
        exchange: 3,
        participant: 'agent',
        method: 'POST',
        path: '/ng-control/v1/agent-checkpoint/prepare',
        query: {},
        http_status: 400,
        ms: 16,
        request: { checkpoint_id: 'ck-1' },
        response: 'x'.repeat(40),
        response_body: { bytes: 90000, truncated: true, sha256: 'ab'.repeat(32), encoding: 'text' },
      },
    } as unknown as TraceEvent
    render(<RecordedExchange event={event} />)
    const panel = screen.getByTestId('recorded-exchange')
    expect(panel.textContent).toContain('POST /ng-control/v1/agent-checkpoint/prepare')
    expect(panel.textContent).toContain('400 invalid_request')
    expect(panel.textContent).toContain('"checkpoint_id": "ck-1"')
    expect(screen.getByTestId('truncated-body').textContent).toContain('90000 bytes')
  })
})

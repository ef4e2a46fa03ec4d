// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, render, screen } from '@testing-library/react'
import type { LineageView } from '@cutover/core/contracts'
import { LineageGraph } from './LineageGraph.tsx'
import { LineageTree } from './LineageTree.tsx'

afterEach(cleanup)

const NOTES = {
  running: 'running',
  completed: 'completed',
  continued: 'continued after restore',
  retired: 'retired straggler',
  fenced: 'fenced',
} as const

const rollouts: LineageView['rollouts'] = [
  {
    rollout_id: 'r0',
    environment: 'blackjack',
    attempts: [
      {
        attempt: 0,
        status: 'continued',
        calls: [
          { model_call_id: 'p1', parent_call_id: null, relay: false, step: 4 },
          {
            model_call_id: 'p3',
            parent_call_id: 'p1',
            relay: false,
            step: 20,
            generation_cut: {
              model_call_id: 'p3',
              disposition: 'durable_prefix',
              cut_kind: 'active_prefix',
              prefix_token_count: 212,
            },
          },
        ],
      },
      {
        attempt: 1,
        status: 'completed',
        calls: [
          {
            model_call_id: 'p5',
            parent_call_id: 'p3',
            relay: true,
            step: 90,
            continues_cut: {
              model_call_id: 'p3',
              prefix_token_count: 212,
              prefix_delivery: 'staged',
            },
          },
        ],
      },
    ],
  },
]

describe('lineage of a cut call', () => {
  it('[lineage-cut] the list shows "cut at token k" on the call of N and its continuation under N+1', () => {
    render(<LineageTree rollouts={rollouts} statusNote={NOTES} />)
    expect(screen.getByTestId('cut-note').textContent).toBe(' ✂ cut at token 212')
    expect(
      screen.getByTestId('cut-note').closest('[data-attempt]')?.getAttribute('data-attempt'),
    ).toBe('r0.a0')
    expect(screen.getByTestId('continues-cut').textContent).toBe(
      ' ⇢ continues p3 from token 212 (staged)',
    )
    expect(
      screen.getByTestId('continues-cut').closest('[data-attempt]')?.getAttribute('data-attempt'),
    ).toBe('r0.a1')
  })

  it('[lineage-cut] the graph marks the cut call with its token count and draws the cut edge to its continuation', () => {
    render(<LineageGraph rollouts={rollouts} statusNote={NOTES} />)
    const edge = screen.getByTestId('cut-edge')
    expect(edge.textContent).toBe('p3 cut at token 212, continued by a1 p5 (staged)')
    expect(document.querySelector('circle.is-cut')?.getAttribute('data-call')).toBe('p3')
    expect(document.querySelector('text.cut-label')?.textContent).toBe('✂212')
  })

  it('[lineage-cut] a failed or excluded disposition is named in words', () => {
    const failed = structuredClone(rollouts) as typeof rollouts
    const call = failed[0]?.attempts[0]?.calls[1]
    if (call)
      Object.assign(call, {
        generation_cut: { model_call_id: 'p3', disposition: 'durable_failure' },
      })
    render(<LineageTree rollouts={failed} statusNote={NOTES} />)
    expect(screen.getByTestId('cut-note').textContent).toBe(' · durable failure')
  })

  it('[lineage-cut] a call that finished behind the fence says so, without scissors', () => {
    const done = structuredClone(rollouts) as typeof rollouts
    const call = done[0]?.attempts[0]?.calls[1]
    if (call)
      Object.assign(call, {
        generation_cut: {
          model_call_id: 'p3',
          disposition: 'completed_durable',
          cut_kind: 'terminal_completion',
          prefix_token_count: 150,
        },
      })
    render(<LineageTree rollouts={done} statusNote={NOTES} />)
    expect(screen.getByTestId('cut-note').textContent).toBe(
      ' · finished behind the fence (150 tokens durable)',
    )
  })
})

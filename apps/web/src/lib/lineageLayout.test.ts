import { describe, expect, it } from 'vitest'
import { lineageLayout } from './lineageLayout.ts'

describe('lineageLayout', () => {
  it('draws parent edges within an attempt and the relay edge from N to N+1', () => {
    const layout = lineageLayout({
      rollout_id: 'r1',
      environment: 'counter',
      attempts: [
        {
          attempt: 0,
          status: 'continued',
          calls: [
            { model_call_id: 'c1', parent_call_id: null, relay: false, step: 3 },
            { model_call_id: 'c2', parent_call_id: 'c1', relay: false, step: 9 },
          ],
        },
        {
          attempt: 1,
          status: 'completed',
          calls: [{ model_call_id: 'c3', parent_call_id: 'c2', relay: true, step: 40 }],
        },
      ],
    })
    expect(layout.attempts).toHaveLength(2)
    expect(layout.edges.map((e) => e.kind)).toEqual(['parent', 'relay'])
    const relay = layout.edges[1]
    expect(relay?.from).toBe(layout.attempts[0]?.calls[1]?.x)
    expect(relay?.to).toBe(layout.attempts[1]?.calls[0]?.x)
    expect(layout.width).toBeGreaterThan(
      (layout.attempts[1]?.x ?? 0) + (layout.attempts[1]?.width ?? 0),
    )
  })
  it('finds a relay parent in the earlier attempt even when the restored model reuses the call id', () => {
    const layout = lineageLayout({
      rollout_id: 'r4',
      environment: 'counter',
      attempts: [
        {
          attempt: 0,
          status: 'continued',
          calls: [{ model_call_id: 'p5', parent_call_id: null, relay: false, step: 38 }],
        },
        {
          attempt: 1,
          status: 'completed',
          calls: [
            { model_call_id: 'p5', parent_call_id: 'p5', relay: true, step: 166 },
            { model_call_id: 'p9', parent_call_id: 'p5', relay: false, step: 205 },
          ],
        },
      ],
    })
    const [a0, a1] = layout.attempts
    expect(layout.edges.map((e) => [e.kind, e.from, e.to])).toEqual([
      ['relay', a0?.calls[0]?.x, a1?.calls[0]?.x],
      ['parent', a1?.calls[0]?.x, a1?.calls[1]?.x],
    ])
  })
  it('[lineage-cut] draws a cut edge from the call cut in N to the call of N+1 that continues it', () => {
    const layout = lineageLayout({
      rollout_id: 'r3',
      environment: 'counter',
      attempts: [
        {
          attempt: 0,
          status: 'continued',
          calls: [
            { model_call_id: 'p1', parent_call_id: null, relay: false, step: 5 },
            {
              model_call_id: 'p4',
              parent_call_id: 'p1',
              relay: false,
              step: 30,
              generation_cut: {
                model_call_id: 'p4',
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
              model_call_id: 'p9',
              parent_call_id: 'p1',
              relay: true,
              step: 90,
              continues_cut: {
                model_call_id: 'p4',
                prefix_token_count: 212,
                prefix_delivery: 'staged',
              },
            },
          ],
        },
      ],
    })
    const [a0, a1] = layout.attempts
    const cut = layout.edges.find((e) => e.kind === 'cut')
    expect(cut).toEqual({
      kind: 'cut',
      from: a0?.calls[1]?.x,
      to: a1?.calls[0]?.x,
      label: 'p4 cut at token 212, continued by a1 p9 (staged)',
    })
  })
})

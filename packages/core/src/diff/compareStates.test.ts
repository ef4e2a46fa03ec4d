import { describe, expect, it } from 'vitest'
import type { TraceEvent } from '../contracts/trace.ts'
import { compareStates } from './compareStates.ts'
import { summarizeDiff } from './summarizeDiff.ts'
import { diffTraces } from './diffTraces.ts'

describe('compareStates', () => {
  it('[diff] lists only the items that differ or exist on one side, by id', () => {
    const a = [
      { id: 'agent', phase: 'prepared' },
      { id: 'controller', phase: 'x' },
      { id: 'gone', phase: 'y' },
    ]
    const b = [
      { id: 'controller', phase: 'x' },
      { id: 'agent', phase: 'retiring' },
      { id: 'new', phase: 'z' },
    ]
    expect(compareStates(a, b, (p) => p.id)).toEqual([
      { id: 'agent', a: { id: 'agent', phase: 'prepared' }, b: { id: 'agent', phase: 'retiring' } },
      { id: 'gone', a: { id: 'gone', phase: 'y' }, b: null },
      { id: 'new', a: null, b: { id: 'new', phase: 'z' } },
    ])
  })
})

describe('summarizeDiff', () => {
  it('[diff] the cutover diff --json shape', () => {
    // hand-made events: only their type matters to the diff
    const e = (type: string, step: number) =>
      ({
        step,
        time_ms: 0,
        phase: 'run' as const,
        from: 'a',
        to: 'b',
        type,
        payload: {},
        outcome: 'ok',
      }) as TraceEvent
    expect(summarizeDiff(diffTraces([e('x', 1)], [e('x', 1)]), [e('x', 1)], [e('x', 1)])).toEqual({
      identical: true,
      first_divergence: null,
      differences: 0,
    })
    const a = [e('x', 1), e('y', 2), e('z', 3)]
    const b = [e('x', 1), e('z', 2)]
    // A has an event B lacks: B's event at that step is the one it continues with
    expect(summarizeDiff(diffTraces(a, b), a, b)).toEqual({
      identical: false,
      first_divergence: { step_a: 2, step_b: 2, a: e('y', 2), b: e('z', 2) },
      differences: 1,
    })
    expect(
      summarizeDiff(
        diffTraces([e('x', 1), e('y', 2)], [e('x', 1)]),
        [e('x', 1), e('y', 2)],
        [e('x', 1)],
      ),
    ).toEqual({
      identical: false,
      first_divergence: { step_a: 2, step_b: 2, a: e('y', 2), b: null },
      differences: 1,
    })
  })
})

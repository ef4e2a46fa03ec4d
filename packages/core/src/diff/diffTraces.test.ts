import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { TraceEvent } from '../contracts/trace.ts'
import { diffTraces } from './diffTraces.ts'

/** A hand-made event: only its type, time and outcome matter to the diff. */
const ev = (type: string, time_ms = 0, outcome = 'ok'): TraceEvent =>
  ({
    step: 0,
    time_ms,
    phase: 'run',
    from: 'controller',
    to: 'agent',
    type,
    payload: {},
    outcome,
  }) as TraceEvent
/** Numbers steps from 1, as a trace is. */
const trace = (events: readonly TraceEvent[]): TraceEvent[] =>
  events.map((e, i) => ({ ...e, step: i + 1 }))
const types = (events: readonly TraceEvent[]) => events.map((e) => e.type)

/** Rebuilds B from A and the differences: proves the alignment accounts for every event. */
function apply(
  a: readonly TraceEvent[],
  differences: ReturnType<typeof diffTraces>['differences'],
): string[] {
  const out: string[] = []
  let at = 0
  for (const d of differences) {
    out.push(...types(a.slice(at, d.step_a - 1)), ...types(d.b))
    at = d.step_a - 1 + d.a.length
  }
  return [...out, ...types(a.slice(at))]
}

describe('diffTraces', () => {
  it('[diff] identical traces: identical, no differences', () => {
    const a = trace([ev('x'), ev('y'), ev('z')])
    expect(diffTraces(a, a)).toEqual({ identical: true, differences: [], truncated: false })
    expect(diffTraces([], [])).toEqual({ identical: true, differences: [], truncated: false })
  })

  it('[diff] stops at the first divergent event and names its step in each run', () => {
    const a = trace([ev('p'), ev('q'), ev('agent.retire'), ev('r'), ev('s')])
    const b = trace([ev('p'), ev('q'), ev('r'), ev('s')])
    const diff = diffTraces(a, b)
    expect(diff.identical).toBe(false)
    expect(diff.differences).toHaveLength(1)
    expect(diff.differences[0]).toMatchObject({ step_a: 3, step_b: 3, b: [] })
    expect(types(diff.differences[0]?.a ?? [])).toEqual(['agent.retire'])
  })

  it('[diff] aligns past an insertion: later events of both runs pair up again, each further difference in order', () => {
    const a = trace([ev('p'), ev('q'), ev('r'), ev('s'), ev('t')])
    const b = trace([ev('p'), ev('new'), ev('q'), ev('r'), ev('S'), ev('t')])
    const diff = diffTraces(a, b)
    expect(diff.differences.map((d) => [d.step_a, d.step_b, types(d.a), types(d.b)])).toEqual([
      [2, 2, [], ['new']],
      [4, 5, ['s'], ['S']],
    ])
  })

  it('[diff] a clock shift alone is one difference at the first shifted event, not a flood', () => {
    const a = trace([ev('p', 0), ev('q', 10), ev('r', 20)])
    const b = trace([ev('p', 0), ev('q', 15), ev('r', 25)])
    const diff = diffTraces(a, b)
    expect(diff.identical).toBe(false)
    expect(diff.differences).toHaveLength(1)
    expect(diff.differences[0]).toMatchObject({ step_a: 2, step_b: 2 })
  })

  it('[diff] one run a prefix of the other: the rest is one difference with an empty side', () => {
    const a = trace([ev('p'), ev('q')])
    const b = trace([ev('p'), ev('q'), ev('r'), ev('s')])
    expect(
      diffTraces(a, b).differences.map((d) => [d.step_a, d.step_b, types(d.a), types(d.b)]),
    ).toEqual([[3, 3, [], ['r', 's']]])
  })

  it('[diff] past maxEdits the rest is one difference and truncated is set', () => {
    const a = trace(Array.from({ length: 50 }, (_, i) => ev(`a${i}`)))
    const b = trace(Array.from({ length: 50 }, (_, i) => ev(`b${i}`)))
    const diff = diffTraces(a, b, 10)
    expect(diff).toMatchObject({ identical: false, truncated: true })
    expect(diff.differences).toHaveLength(1)
    expect(diff.differences[0]?.a).toHaveLength(50)
  })

  describe('properties', () => {
    const events = fc
      .array(
        fc.constantFrom('a', 'b', 'c', 'd').map((t) => ev(t)),
        { maxLength: 40 },
      )
      .map(trace)

    it('[diff] the differences turn A into B, in order, never overlapping', () => {
      fc.assert(
        fc.property(events, events, (a, b) => {
          const diff = diffTraces(a, b)
          expect(apply(a, diff.differences)).toEqual(types(b))
          for (let i = 1; i < diff.differences.length; i++) {
            const prev = diff.differences[i - 1] as (typeof diff.differences)[number]
            const next = diff.differences[i] as (typeof diff.differences)[number]
            expect(next.step_a).toBeGreaterThan(prev.step_a + prev.a.length - 1)
            expect(next.step_b).toBeGreaterThan(prev.step_b + prev.b.length - 1)
          }
          expect(diff.identical).toBe(diff.differences.length === 0)
        }),
      )
    })

    it('[diff] the first difference starts exactly where the traces first differ', () => {
      fc.assert(
        fc.property(events, events, (a, b) => {
          let first = 0
          while (first < a.length && first < b.length && a[first]?.type === b[first]?.type) first++
          const diff = diffTraces(a, b)
          if (first === a.length && first === b.length) expect(diff.differences).toEqual([])
          else
            expect([diff.differences[0]?.step_a, diff.differences[0]?.step_b]).toEqual([
              first + 1,
              first + 1,
            ])
        }),
      )
    })

    it('[diff] a trace against itself is identical; without unique events the alignment is a shortest edit script, the same size both ways', () => {
      // two kinds of event, each repeated: no anchors, so Myers aligns the whole middle
      const repeated = fc
        .array(
          fc.constantFrom('a', 'b').map((t) => ev(t)),
          { minLength: 2, maxLength: 30 },
        )
        .map((es) => trace([ev('a'), ev('b'), ...es, ev('a'), ev('b')]))
      fc.assert(
        fc.property(repeated, repeated, (a, b) => {
          expect(diffTraces(a, a).identical).toBe(true)
          const edits = (ds: ReturnType<typeof diffTraces>['differences']) =>
            ds.reduce((n, d) => n + d.a.length + d.b.length, 0)
          expect(edits(diffTraces(a, b).differences)).toBe(edits(diffTraces(b, a).differences))
        }),
      )
    })

    it('[diff] long traces with ids align on their unique events: many scattered changes, every one reported, none truncated', () => {
      fc.assert(
        fc.property(fc.array(fc.nat({ max: 2999 }), { minLength: 1, maxLength: 60 }), (changed) => {
          const a = trace(Array.from({ length: 3000 }, (_, i) => ev(`call-${i}`)))
          const drop = new Set(changed)
          const b = trace(a.filter((_, i) => !drop.has(i)))
          const diff = diffTraces(a, b, 10)
          expect(diff.truncated).toBe(false)
          expect(diff.differences.reduce((n, d) => n + d.a.length, 0)).toBe(drop.size)
          expect(apply(a, diff.differences)).toEqual(types(b))
        }),
        { numRuns: 30 },
      )
    })
  })
})

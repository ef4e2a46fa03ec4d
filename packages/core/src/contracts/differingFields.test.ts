import { describe, expect, it } from 'vitest'
import { differingFields } from './runDiff.ts'
import type { TraceEvent } from './trace.ts'

const event = (over: Partial<TraceEvent>): TraceEvent =>
  ({
    step: 1,
    time_ms: 10,
    phase: 'run',
    from: 'controller',
    to: 'agent',
    type: 'run.dispatch',
    payload: { rollout_id: 'r0', attempt_index: 0, nested: { a: 1, b: 2 } },
    outcome: 'ok',
    ...over,
  }) as TraceEvent

describe('differingFields', () => {
  it('[diff] names the event fields and payload keys that differ, key order ignored', () => {
    expect(
      differingFields(
        event({}),
        event({ payload: { nested: { b: 2, a: 1 }, attempt_index: 0, rollout_id: 'r0' } }),
      ),
    ).toEqual([])
    expect(
      differingFields(
        event({}),
        event({
          time_ms: 12,
          outcome: 'stale_attempt',
          payload: { rollout_id: 'r1', attempt_index: 0, nested: { a: 1, b: 2 } },
        }),
      ),
    ).toEqual(['outcome', 'time_ms', 'payload.rollout_id'])
    expect(differingFields(event({}), null)).toEqual(['(no event)'])
  })
})

import { describe, expect, it } from 'vitest'
import type { TraceEvent } from '@cutover/core/contracts'
import { stragglerFate } from './stragglerFate.ts'

const ev = (step: number, type: string, payload: Record<string, unknown>): TraceEvent =>
  ({
    step,
    time_ms: step,
    phase: 'prepare',
    from: 'policy_model',
    to: 'generation_worker',
    type,
    payload,
    outcome: 'ok',
  }) as unknown as TraceEvent

describe('straggler fate', () => {
  it('[demo-fate] whole-request: the straggler is retired, and its next attempt dispatched fresh', () => {
    const events = [
      ev(1, 'run.dispatch', { rollout_id: 'r3', attempt_index: 0 }),
      ev(2, 'rollout.retired', { rollout_id: 'r3', attempt_index: 0 }),
      ev(3, 'run.dispatch', { rollout_id: 'r1', attempt_index: 1 }),
      ev(4, 'run.dispatch', { rollout_id: 'r3', attempt_index: 1 }),
    ]
    expect(stragglerFate(events)).toEqual({
      kind: 'retired',
      rollout: 'r3',
      step: 2,
      redispatched: 4,
    })
  })

  it('[demo-fate] generation-safe: cut at token k, acknowledged durable, continued by N+1 naming the cut call', () => {
    const events = [
      ev(1, 'generation.cut', {
        rollout_id: 'r0',
        attempt_index: 0,
        model_call_id: 'c1',
        prefix_token_count: 9,
      }),
      ev(2, 'generation.cut', {
        rollout_id: 'r3',
        attempt_index: 0,
        model_call_id: 'c7',
        prefix_token_count: 212,
      }),
      // a call that finished behind the fence is not the straggler
      ev(3, 'generation.cut_ack', {
        rollout_id: 'r0',
        attempt_index: 0,
        model_call_id: 'c1',
        disposition: 'durable_prefix',
        cut_kind: 'terminal_completion',
        prefix_token_count: 9,
      }),
      ev(4, 'generation.cut_ack', {
        rollout_id: 'r3',
        attempt_index: 0,
        model_call_id: 'c7',
        disposition: 'durable_prefix',
        cut_kind: 'active_prefix',
        prefix_token_count: 212,
      }),
      ev(5, 'rollout.retired', { rollout_id: 'r5', attempt_index: 0 }),
      ev(6, 'generation.continue', {
        rollout_id: 'r3',
        attempt_index: 1,
        model_call_id: 'c1',
        cut_model_call_id: 'c7',
        prefix_token_count: 212,
      }),
    ]
    expect(stragglerFate(events)).toEqual({
      kind: 'cut',
      rollout: 'r3',
      call: 'c7',
      step: 2,
      tokens: 212,
      acked: 4,
      continued: 6,
      continuedAttempt: 1,
    })
  })

  it('[demo-fate] before the checkpoint meets the straggler, the fate is pending; a cut not yet continued has no continuation', () => {
    expect(stragglerFate([ev(1, 'run.dispatch', { rollout_id: 'r0', attempt_index: 0 })])).toEqual({
      kind: 'pending',
    })
    const fate = stragglerFate([
      ev(1, 'generation.cut_ack', {
        rollout_id: 'r3',
        attempt_index: 0,
        model_call_id: 'c7',
        disposition: 'durable_prefix',
        cut_kind: 'active_prefix',
        prefix_token_count: 4,
      }),
    ])
    expect(fate).toMatchObject({
      kind: 'cut',
      step: 1,
      tokens: 4,
      continued: null,
      continuedAttempt: null,
    })
  })
})

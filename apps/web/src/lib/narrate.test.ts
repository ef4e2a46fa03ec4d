import { describe, expect, it } from 'vitest'
import type { TraceEvent, TraceMessage } from '@cutover/core/contracts'
import { narrate } from './narrate.ts'

/** A hand-made event (its payload holds only what the sentence reads; its type may be unknown). */
const event = (over: Partial<TraceMessage>): TraceEvent => ({ step: 1, time_ms: 0, phase: 'run', from: 'controller', to: 'agent', type: 'run.dispatch', payload: {}, outcome: 'ok', ...over }) as TraceEvent

describe('straggler narrative', () => {
  it('[narrative] tells the retirement of a straggler in words', () => {
    const line = narrate(event({ phase: 'retire', type: 'model.abort_inflight', to: 'policy_model', payload: { rollout_id: 'r0', attempt_index: 0 } }))
    expect(line).toBe('straggler retirement: The deadline passed while rollout r0 (attempt 0) was still generating: the policy model aborts its in-flight call and tombstones the attempt.')
  })

  it('[narrative] explains a stale_attempt refusal of a delayed request', () => {
    const line = narrate(event({ phase: 'continue', from: 'rollout_r0', to: 'policy_model', type: 'model.request', outcome: 'stale_attempt', payload: { rollout_id: 'r0', attempt_index: 0 } }))
    expect(line).toContain('A delayed request from the retired rollout r0 (attempt 0) reaches the policy model. The policy model refuses')
    expect(line).toContain('refuses model.request with stale_attempt')
  })

  it('[narrative] has a line for step 0 and for event types it does not know', () => {
    expect(narrate(null)).toMatch(/^Before the first message/)
    expect(narrate(event({ type: 'x.new_thing', to: 'resources_workplace' }))).toBe('rollouts run: The controller → the workplace resources server: new thing for the rollout.')
  })
})

import { describe, expect, it } from 'vitest'
import type { TraceEvent, TraceMessage } from '@cutover/core/contracts'
import { narrate } from './narrate.ts'

/** A hand-made event (its payload holds only what the sentence reads; its type may be unknown). */
const event = (over: Partial<TraceMessage>): TraceEvent =>
  ({
    step: 1,
    time_ms: 0,
    phase: 'run',
    from: 'controller',
    to: 'agent',
    type: 'run.dispatch',
    payload: {},
    outcome: 'ok',
    ...over,
  }) as TraceEvent

describe('straggler narrative', () => {
  it('[narrative] tells the retirement of a straggler in words', () => {
    const line = narrate(
      event({
        phase: 'retire',
        type: 'model.abort_inflight',
        to: 'policy_model',
        payload: { rollout_id: 'r0', attempt_index: 0 },
      }),
    )
    expect(line).toBe(
      'straggler retirement: The deadline passed while rollout r0 (attempt 0) was still generating: the policy model aborts its in-flight call and tombstones the attempt.',
    )
  })

  it('[narrative] explains a stale_attempt refusal of a delayed request', () => {
    const line = narrate(
      event({
        phase: 'continue',
        from: 'rollout_r0',
        to: 'policy_model',
        type: 'model.request',
        outcome: 'stale_attempt',
        payload: { rollout_id: 'r0', attempt_index: 0 },
      }),
    )
    expect(line).toContain(
      'A delayed request from the retired rollout r0 (attempt 0) reaches the policy model. The policy model refuses',
    )
    expect(line).toContain('refuses model.request with stale_attempt')
  })

  it('[narrative] has a line for step 0 and for event types it does not know', () => {
    expect(narrate(null)).toMatch(/^Before the first message/)
    expect(narrate(event({ type: 'x.new_thing', to: 'resources_workplace' }))).toBe(
      'rollouts run: The controller → the workplace resources server: new thing for the rollout.',
    )
  })

  it('[narrative] tells a generation-safe cut: the token boundary, the durable acknowledgement and the continuation', () => {
    const ids = { rollout_id: 'r0', attempt_index: 0, model_call_id: 'p3' }
    const cut = narrate(
      event({
        phase: 'prepare',
        from: 'policy_model',
        to: 'generation_worker',
        type: 'generation.cut',
        payload: { ...ids, prefix_token_count: 212 },
      }),
    )
    expect(cut).toBe(
      "prepare: Rollout r0 (attempt 0)'s call p3 is still generating: the policy model asks the generation worker to cut it at token 212 — the buffer up to there is frozen, decoding goes on into a fresh one.",
    )
    const ack = narrate(
      event({
        phase: 'prepare',
        from: 'generation_worker',
        to: 'policy_model',
        type: 'generation.cut_ack',
        payload: {
          ...ids,
          disposition: 'durable_prefix',
          cut_kind: 'active_prefix',
          prefix_token_count: 212,
        },
      }),
    )
    expect(ack).toContain(
      'durable_prefix: 212 tokens, durable in the token store before the acknowledgement',
    )
    const failed = narrate(
      event({
        phase: 'prepare',
        from: 'generation_worker',
        to: 'policy_model',
        type: 'generation.cut_ack',
        payload: { ...ids, disposition: 'durable_failure', prefix_token_count: null },
      }),
    )
    expect(failed).toContain('durable_failure')
    const cont = narrate(
      event({
        phase: 'continue',
        from: 'policy_model',
        to: 'generation_worker',
        type: 'generation.continue',
        payload: {
          rollout_id: 'r0',
          attempt_index: 1,
          model_call_id: 'p1',
          cut_model_call_id: 'p3',
          prefix_token_count: 212,
          prefix_delivery: 'staged',
          continuation_token_count: 88,
        },
      }),
    )
    expect(cont).toContain(
      'continues the cut call p3 from token 212 (prefix delivered staged) and generates 88 more tokens',
    )
    const custody = narrate(
      event({
        phase: 'continue',
        from: 'policy_model',
        to: 'generation_worker',
        type: 'generation.continue',
        payload: {
          rollout_id: 'r0',
          attempt_index: 1,
          model_call_id: 'p1',
          cut_model_call_id: 'p3',
          prefix_token_count: 150,
          prefix_delivery: 'inline',
          continuation_token_count: 0,
        },
      }),
    )
    expect(custody).toContain('all 150 tokens come from custody')
    const completed = narrate(
      event({
        phase: 'prepare',
        from: 'generation_worker',
        to: 'policy_model',
        type: 'generation.cut_ack',
        payload: {
          ...ids,
          disposition: 'completed_durable',
          cut_kind: 'terminal_completion',
          prefix_token_count: 150,
        },
      }),
    )
    expect(completed).toContain(
      '(completed_durable); after restore the result is delivered from custody',
    )
    const refused = narrate(
      event({
        phase: 'restore',
        from: 'controller',
        to: 'policy_model',
        type: 'model.restore',
        outcome: 'restored_cut_digest_mismatch',
        payload: {},
      }),
    )
    expect(refused).toContain('does not match its digest')
  })
})

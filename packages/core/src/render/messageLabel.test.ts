import { describe, expect, it } from 'vitest'
import type { TraceMessage } from '../contracts/trace.ts'
import { messageLabel } from './messageLabel.ts'

const event = (
  type: string,
  payload: TraceMessage['payload'],
  from = 'policy_model',
  to = 'generation_worker',
): TraceMessage =>
  ({
    step: 1,
    time_ms: 0,
    phase: 'prepare',
    from,
    to,
    type,
    payload,
    outcome: 'ok',
  }) as TraceMessage

describe('messageLabel', () => {
  it('[render-cut] the cut, the acknowledged prefix and the continuation carry the token count and the cut call', () => {
    const ids = { rollout_id: 'r3', attempt_index: 0, model_call_id: 'c7' }
    expect(messageLabel(event('generation.cut', { ...ids, prefix_token_count: 212 }))).toBe(
      'generation.cut r3.a0 call c7 cut at token 212',
    )
    expect(messageLabel(event('token.stage_prefix', { ...ids, prefix_token_count: 212 }))).toBe(
      'token.stage_prefix r3.a0 call c7 212 tokens',
    )
    expect(
      messageLabel(
        event('generation.cut_ack', {
          ...ids,
          disposition: 'durable_prefix',
          prefix_token_count: 212,
        }),
      ),
    ).toBe('generation.cut_ack r3.a0 call c7 212 tokens')
    // the continuation of N+1 is named after the call it continues: the same label on both sides of the cut
    const continued = messageLabel(
      event('generation.continue', {
        rollout_id: 'r3',
        attempt_index: 1,
        model_call_id: 'c1',
        cut_model_call_id: 'c7',
        prefix_token_count: 212,
        prefix_delivery: 'staged',
      }),
    )
    expect(continued).toBe('generation.continue r3.a1 call c7 continues from token 212 (staged)')
  })

  it('[render-cut] a failed or excluded disposition is named; other messages get no cut hint', () => {
    expect(
      messageLabel(
        event('generation.cut_ack', {
          rollout_id: 'r1',
          attempt_index: 0,
          model_call_id: 'c2',
          disposition: 'durable_failure',
          prefix_token_count: null,
        }),
      ),
    ).toBe('generation.cut_ack r1.a0 call c2 durable_failure')
    expect(
      messageLabel(
        event('model.request', {
          rollout_id: 'r1',
          attempt_index: 0,
          model_call_id: 'c2',
          prefix_token_count: 5,
        }),
      ),
    ).toBe('model.request r1.a0')
  })

  it('[render-cut] payload strings in the hint are made safe for mermaid', () => {
    const label = messageLabel(
      event('generation.cut', {
        rollout_id: 'r1',
        attempt_index: 0,
        model_call_id: 'c;2:%%{x}%%',
        prefix_token_count: 1,
      }),
    )
    expect(label.replace(/#\d+;/g, '')).not.toMatch(/[;:%]/)
  })
})

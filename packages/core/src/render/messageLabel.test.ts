import { describe, expect, it } from 'vitest'
import type { TraceMessage } from '../contracts/trace.ts'
import { messageLabel } from './messageLabel.ts'

const msg = (type: string, payload: TraceMessage['payload'], outcome = 'ok'): TraceMessage => ({
  step: 1,
  time_ms: 0,
  phase: 'prepare',
  from: 'policy_model',
  to: 'generation_worker',
  type,
  payload,
  outcome,
})

describe('message labels of generation-safe cuts', () => {
  it('[model.generation-safe-cuts] the cut, the staged prefix, the acknowledgement and the continuation show their token counts', () => {
    const who = { rollout_id: 'r0', attempt_index: 0 }
    expect(messageLabel(msg('generation.cut', { ...who, prefix_token_count: 153 }))).toBe(
      'generation.cut r0.a0 cut at token 153',
    )
    expect(messageLabel(msg('token.stage_prefix', { ...who, prefix_token_count: 153 }))).toBe(
      'token.stage_prefix r0.a0 prefix [0, 153)',
    )
    expect(
      messageLabel(
        msg('generation.cut_ack', {
          ...who,
          disposition: 'durable_prefix',
          prefix_token_count: 153,
        }),
      ),
    ).toBe('generation.cut_ack r0.a0 durable_prefix k=153')
    expect(
      messageLabel(
        msg('generation.cut_ack', { ...who, disposition: 'excluded', prefix_token_count: null }),
      ),
    ).toBe('generation.cut_ack r0.a0 excluded')
    expect(
      messageLabel(
        msg('generation.continue', {
          rollout_id: 'r0',
          attempt_index: 1,
          prefix_token_count: 153,
          prefix_delivery: 'staged',
          continuation_token_count: 257,
        }),
      ),
    ).toBe('generation.continue r0.a1 from token 153 (staged) +257')
    // Every other message is labelled as before.
    expect(messageLabel(msg('model.request', { ...who, prefix_token_count: 3 }))).toBe(
      'model.request r0.a0',
    )
  })
})

describe('the call a cut message is about', () => {
  const ids = { rollout_id: 'r3', attempt_index: 0, model_call_id: 'c7' }
  it('[render-cut] the cut, the staged prefix and the acknowledgement name the cut call after the token count', () => {
    expect(messageLabel(msg('generation.cut', { ...ids, prefix_token_count: 212 }))).toBe(
      'generation.cut r3.a0 cut at token 212 call c7',
    )
    expect(messageLabel(msg('token.stage_prefix', { ...ids, prefix_token_count: 212 }))).toBe(
      'token.stage_prefix r3.a0 prefix [0, 212) call c7',
    )
    expect(
      messageLabel(
        msg('generation.cut_ack', {
          ...ids,
          disposition: 'durable_prefix',
          prefix_token_count: 212,
        }),
      ),
    ).toBe('generation.cut_ack r3.a0 durable_prefix k=212 call c7')
    expect(
      messageLabel(
        msg('generation.cut_ack', {
          ...ids,
          disposition: 'durable_failure',
          prefix_token_count: null,
        }),
      ),
    ).toBe('generation.cut_ack r3.a0 durable_failure call c7')
  })

  it('[render-cut] the continuation of N+1 is named after the call it continues: one label on both sides of the cut', () => {
    const continued = msg('generation.continue', {
      rollout_id: 'r3',
      attempt_index: 1,
      model_call_id: 'c1',
      cut_model_call_id: 'c7',
      prefix_token_count: 212,
      prefix_delivery: 'staged',
    })
    expect(messageLabel(continued)).toBe(
      'generation.continue r3.a1 from token 212 (staged) call c7',
    )
    expect(messageLabel(msg('model.request', { ...ids, prefix_token_count: 5 }))).toBe(
      'model.request r3.a0',
    )
  })

  it('[render-cut] payload strings in the hint are made safe for mermaid', () => {
    const label = messageLabel(
      msg('generation.cut', {
        rollout_id: 'r1',
        attempt_index: 0,
        model_call_id: 'c;2:%%{x}%%',
        prefix_token_count: 1,
      }),
    )
    expect(label.replace(/#\d+;/g, '')).not.toMatch(/[;:%]/)
  })
})

describe('message labels of bounded directory checks', () => {
  it('[steps] a directory.verify batch names its folder and how far the check has got, and its problems', () => {
    const batch = (problems: number): TraceMessage => ({
      step: 1,
      time_ms: 0,
      phase: 'restore',
      from: 'controller',
      to: 'directory',
      type: 'directory.verify',
      payload: {
        checkpoint_id: 'ck-1',
        path: 'agent/',
        files: 128,
        bytes: 9000,
        checked: 256,
        total: 1000,
        problems,
      },
      outcome: 'ok',
    })
    expect(messageLabel(batch(0))).toBe('directory.verify agent/ 256/1000')
    expect(messageLabel(batch(2))).toBe('directory.verify agent/ 256/1000 ✗ 2')
    expect(
      messageLabel(msg('directory.write', { path: 'agent/manifest.json', checked: 1, total: 2 })),
    ).toBe('directory.write agent/manifest.json')
  })
})

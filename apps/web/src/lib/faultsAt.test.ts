import { describe, expect, it } from 'vitest'
import type { TraceMessage } from '@cutover/core/contracts'
import { faultsAt } from './faultsAt.ts'

const ev = (
  step: number,
  type: string,
  payload: TraceMessage['payload'],
  from = 'controller',
  to = 'agent',
): TraceMessage => ({ step, time_ms: step, phase: 'run', from, to, type, payload, outcome: 'ok' })
const options = { deadlineMs: 100, schedule: [] }

describe('faults offered at an event', () => {
  const events = [
    ev(1, 'model.request', { rollout_id: 'r3', attempt_index: 0 }, 'agent', 'policy_model'),
    ev(2, 'run.complete', { rollout_id: 'r3', attempt_index: 0, reward: 1 }, 'agent', 'rollout_r3'),
    ev(
      3,
      'model.worker_close',
      { checkpoint_id: 'ck', worker: 1 },
      'policy_model',
      'model_worker_1',
    ),
    ev(
      4,
      'directory.write',
      { checkpoint_id: 'ck', path: 'agent/manifest.json', bytes: 1, crashed: false },
      'agent',
      'directory',
    ),
    ev(
      5,
      'directory.write',
      { checkpoint_id: 'ck', path: 'agent/r3.json', bytes: 1, crashed: false },
      'agent',
      'directory',
    ),
    ev(
      6,
      'directory.write',
      { checkpoint_id: 'ck', path: 'agent/r1.json', bytes: 1, crashed: false },
      'agent',
      'directory',
    ),
    ev(7, 'agent.resume', { checkpoint_id: 'ck' }),
  ]
  const at = (step: number) => faultsAt(events[step - 1]!, events, options).map((o) => o.fault)

  it('[inject] a rollout event offers a straggler and a delayed request to the participant it reaches', () => {
    expect(at(1)).toEqual([
      { kind: 'straggler', rollout: 'r3', extra_ms: 400 },
      { kind: 'stale_request', rollout: 'r3', participant: 'policy_model' },
    ])
  })
  it('[inject] a completed run also offers an unacknowledged result', () => {
    expect(at(2)).toContainEqual({ kind: 'unacked_result', rollout: 'r3' })
    expect(at(2)).toContainEqual({ kind: 'stale_request', rollout: 'r3', participant: 'agent' })
  })
  it('[inject] a worker event offers that worker missing', () => {
    expect(at(3)).toEqual([{ kind: 'missing_worker', worker: 1 }])
  })
  it('[inject] a directory write offers a crash at its number and a corrupt byte at its index in the namespace', () => {
    expect(at(5)).toEqual([
      { kind: 'crash_after_write', k: 2 },
      { kind: 'corrupt_file', namespace: 'agent', index: 1 },
    ])
    expect(at(4)).toEqual([{ kind: 'crash_after_write', k: 1 }])
  })
  it('[inject] an event with nothing to break offers nothing, and a scheduled fault is not offered twice', () => {
    expect(at(7)).toEqual([])
    expect(
      faultsAt(events[0]!, events, {
        deadlineMs: 100,
        schedule: [{ kind: 'straggler', rollout: 'r3', extra_ms: 400 }],
      }).map((o) => o.fault.kind),
    ).toEqual(['stale_request'])
  })
})

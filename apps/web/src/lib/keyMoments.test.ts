import { describe, expect, it } from 'vitest'
import type { InvariantFailure, TraceEvent } from '@cutover/core/contracts'
import { runSummary } from '@cutover/core/contracts'
import { keyMoments as merge, openingStep, rolloutNeighbours } from './keyMoments.ts'

/** The run summary's moments of `events` with the run's failures, as the run page merges them. */
const keyMoments = (events: readonly TraceEvent[], failures: readonly InvariantFailure[]) =>
  merge(runSummary(events).moments, failures)

const ev = (
  step: number,
  phase: TraceEvent['phase'],
  type: string,
  payload: Record<string, unknown>,
  outcome = 'ok',
): TraceEvent =>
  ({
    step,
    time_ms: step,
    phase,
    from: 'controller',
    to: 'agent',
    type,
    payload,
    outcome,
  }) as unknown as TraceEvent

describe('key moments', () => {
  const events = [
    ev(1, 'run', 'model.request', { rollout_id: 'r0', attempt_index: 0 }),
    ev(2, 'retire', 'rollout.retired', { rollout_id: 'r0', attempt_index: 0 }),
    ev(3, 'run', 'model.request', { rollout_id: 'r1', attempt_index: 0 }),
    ev(4, 'commit', 'directory.write', { checkpoint_id: 'ck-1', path: 'checkpoint.json' }),
    ev(5, 'restore', 'agent.restore', {}),
    ev(6, 'restore', 'model.restore', {}),
    ev(
      7,
      'continue',
      'model.request',
      { rollout_id: 'r0', attempt_index: 0, delayed: true },
      'stale_attempt',
    ),
    ev(8, 'run', 'model.request', { rollout_id: 'r0', attempt_index: 1 }),
  ]
  it('[moments] retirement, publication, restore, a fault and the first invariant failure, in step order', () => {
    expect(keyMoments(events, [{ id: 'relay-once', step: 8, message: 'x' }])).toEqual([
      { step: 2, kind: 'retired', label: 'straggler r0.a0 retired' },
      { step: 4, kind: 'published', label: 'checkpoint ck-1 published' },
      { step: 5, kind: 'restore', label: 'restore begins' },
      { step: 7, kind: 'fault', label: 'fault: delayed request of r0.a0 refused (stale_attempt)' },
      { step: 8, kind: 'invariant', label: 'invariant relay-once fails' },
    ])
  })
  it('[moments] a finished run opens at its first turn, else its first published checkpoint, else its end', () => {
    expect(openingStep(keyMoments(events, []), 8)).toBe(2)
    const plain = events.filter((e) => e.step !== 2 && e.step !== 7)
    expect(openingStep(keyMoments(plain, []), 8)).toBe(4)
    expect(openingStep(keyMoments(plain, [{ id: 'relay-once', step: 6, message: 'x' }]), 8)).toBe(6)
    expect(openingStep([], 8)).toBe(8)
  })
  it('[moments] previous and next event of one rollout, any attempt', () => {
    expect(rolloutNeighbours(events, 'r0', 3)).toEqual({ previous: 2, next: 7 })
    expect(rolloutNeighbours(events, 'r0', 8)).toEqual({ previous: 7, next: undefined })
    expect(rolloutNeighbours(events, 'r1', 3)).toEqual({ previous: undefined, next: undefined })
  })
  it('[moments] a generation cut and its continuation are key moments', () => {
    const cut = [
      ev(1, 'prepare', 'generation.cut', {
        rollout_id: 'r0',
        attempt_index: 0,
        prefix_token_count: 212,
      }),
      ev(2, 'continue', 'generation.continue', {
        rollout_id: 'r0',
        attempt_index: 1,
        prefix_token_count: 212,
      }),
    ]
    expect(keyMoments(cut, [])).toEqual([
      { step: 1, kind: 'cut', label: 'r0.a0 cut at token 212' },
      { step: 2, kind: 'continue', label: 'r0.a1 continues from token 212' },
    ])
    // a generation-safe run opens at its cut, the turn of its story
    expect(openingStep(keyMoments(cut, []), 2)).toBe(1)
  })
})

import type { InvariantFailure, KeyMoment, MomentKind, TraceEvent } from '@cutover/core/contracts'

export type { KeyMoment, MomentKind } from '@cutover/core/contracts'

/**
 * The story of a run in a few steps: the moments its events carry (the run summary's: faults
 * taking effect, stragglers retired, generation cuts and continuations, checkpoints published,
 * restores, aborts) and the first failure of each invariant, in step order.
 */
export function keyMoments(
  moments: readonly KeyMoment[],
  failures: readonly InvariantFailure[],
): KeyMoment[] {
  const out = [...moments]
  for (const f of failures)
    out.push({ step: f.step, kind: 'invariant', label: `invariant ${f.id} fails` })
  return out.sort((a, b) => a.step - b.step)
}

/** Moments a run's story turns on: where it departs from a plain checkpoint cycle. */
const TURNS: ReadonlySet<MomentKind> = new Set(['fault', 'retired', 'cut', 'abort', 'invariant'])

/**
 * Where a finished run opens when its URL names no step: its first turn (a fault taking effect, a
 * straggler retired or cut, an abort, an invariant failing), else its first published checkpoint,
 * else its last step. The story starts there; the end of a run is one key press away.
 */
export function openingStep(moments: readonly KeyMoment[], total: number): number {
  return (
    (moments.find((m) => TURNS.has(m.kind)) ?? moments.find((m) => m.kind === 'published'))?.step ??
    total
  )
}

/**
 * The previous and next step of `rollout` (an id like `r004`, any attempt) around `step`, from
 * events that include all of its.
 */
export function rolloutNeighbours(
  events: readonly TraceEvent[],
  rollout: string,
  step: number,
): { previous: number | undefined; next: number | undefined } {
  let previous: number | undefined
  for (const e of events) {
    if (e.payload['rollout_id'] !== rollout) continue
    if (e.step < step) previous = e.step
    else if (e.step > step) return { previous, next: e.step }
  }
  return { previous, next: undefined }
}

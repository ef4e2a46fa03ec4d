import type { InvariantFailure, TraceEvent } from '@cutover/core/contracts'

/** What happens at a key moment. */
export type MomentKind = 'fault' | 'retired' | 'cut' | 'continue' | 'published' | 'restore' | 'abort' | 'invariant'

/** A step worth jumping to, with a one-line label. */
export interface KeyMoment {
  readonly step: number
  readonly kind: MomentKind
  readonly label: string
}

const rolloutOf = (e: TraceEvent): string => {
  const r = e.payload['rollout_id']
  const a = e.payload['attempt_index']
  return typeof r === 'string' ? (typeof a === 'number' ? `${r}.a${a}` : r) : ''
}

/**
 * The story of a run in a few steps: each fault taking effect (a crashed write, a flipped byte, a
 * missing worker, a refused stale request, a duplicate claim), each straggler retired, each
 * generation cut and its continuation, each
 * checkpoint published, each restore, each abort, and the first failure of each invariant.
 */
export function keyMoments(events: readonly TraceEvent[], failures: readonly InvariantFailure[]): KeyMoment[] {
  const out: KeyMoment[] = []
  let restoring = false
  for (const e of events) {
    if (e.type === 'rollout.retired') out.push({ step: e.step, kind: 'retired', label: `straggler ${rolloutOf(e)} retired` })
    else if (e.type === 'generation.cut') out.push({ step: e.step, kind: 'cut', label: `${rolloutOf(e)} cut at token ${String(e.payload['prefix_token_count'])}` })
    else if (e.type === 'generation.continue') out.push({ step: e.step, kind: 'continue', label: `${rolloutOf(e)} continues from token ${String(e.payload['prefix_token_count'])}` })
    else if (e.type === 'fault.corrupt_file') out.push({ step: e.step, kind: 'fault', label: `fault: byte flipped in ${String(e.payload['path'])}` })
    else if (e.type === 'directory.write' && e.outcome !== 'ok') out.push({ step: e.step, kind: 'fault', label: `fault: write crashed (${String(e.payload['path'])})` })
    else if (e.type === 'model.status' && e.outcome === 'missing_workers') out.push({ step: e.step, kind: 'fault', label: 'fault: a model worker never acknowledged' })
    else if (e.payload['delayed'] === true) out.push({ step: e.step, kind: 'fault', label: `fault: delayed request of ${rolloutOf(e)} ${e.outcome === 'ok' ? 'accepted' : `refused (${e.outcome})`}` })
    else if (e.type === 'run.dispatch' && e.outcome === 'duplicate_execution') out.push({ step: e.step, kind: 'fault', label: `fault: ${rolloutOf(e)} claimed twice (refused)` })
    else if (e.type === 'controller.abort') out.push({ step: e.step, kind: 'abort', label: `checkpoint aborted: ${String(e.payload['reason'])}` })
    else if (e.type === 'directory.write' && e.outcome === 'ok' && e.payload['path'] === 'checkpoint.json') out.push({ step: e.step, kind: 'published', label: `checkpoint ${String(e.payload['checkpoint_id'])} published` })
    if (e.phase === 'restore' && !restoring) out.push({ step: e.step, kind: 'restore', label: 'restore begins' })
    restoring = e.phase === 'restore' || (restoring && e.phase !== 'resume')
  }
  for (const f of failures) out.push({ step: f.step, kind: 'invariant', label: `invariant ${f.id} fails` })
  return out.sort((a, b) => a.step - b.step)
}

/** Moments a run's story turns on: where it departs from a plain checkpoint cycle. */
const TURNS: ReadonlySet<MomentKind> = new Set(['fault', 'retired', 'cut', 'abort', 'invariant'])

/**
 * Where a finished run opens when its URL names no step: its first turn (a fault taking effect, a
 * straggler retired or cut, an abort, an invariant failing), else its first published checkpoint, else
 * its last step. The story starts there; the end of a run is one key press away.
 */
export function openingStep(moments: readonly KeyMoment[], total: number): number {
  return (moments.find((m) => TURNS.has(m.kind)) ?? moments.find((m) => m.kind === 'published'))?.step ?? total
}

/** The previous and next step of `rollout` (an id like `r004`, any attempt) around `step`. */
export function rolloutNeighbours(events: readonly TraceEvent[], rollout: string, step: number): { previous: number | undefined; next: number | undefined } {
  let previous: number | undefined
  for (const e of events) {
    if (e.payload['rollout_id'] !== rollout) continue
    if (e.step < step) previous = e.step
    else if (e.step > step) return { previous, next: e.step }
  }
  return { previous, next: undefined }
}

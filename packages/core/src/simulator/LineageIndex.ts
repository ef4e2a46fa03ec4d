import type { LineageView } from '../contracts/views.ts'
import type { LineageCall, Recorder } from './Recorder.ts'

type LineageRollout = LineageView['rollouts'][number]

/** One rollout's change points (sorted steps) and its entries, built per version on demand. */
interface RolloutVersions {
  readonly id: string
  readonly changes: readonly number[]
  /** entries[k]: the entry once the first k+1 changes have happened (memoised, immutable). */
  readonly entries: (LineageRollout | undefined)[]
}

/**
 * The lineage view over a finished run's recorder. A rollout's entry changes only at a few steps
 * (an attempt's status, a model call), so each rollout keeps its sorted change steps and the view
 * at a step is one binary search per rollout into entries built once per version: stepping
 * back and forth builds nothing new for rollouts already seen at that version.
 */
export class LineageIndex {
  readonly #rec: Recorder
  readonly #rollouts: RolloutVersions[]

  constructor(rec: Recorder) {
    this.#rec = rec
    this.#rollouts = rec.rolloutIds().map((id) => {
      const changes: number[] = []
      for (const attempt of rec.attemptOrder.get(id) ?? []) {
        const key = `${id}.a${attempt}`
        for (const step of rec.attemptStatus.get(key)?.steps ?? []) changes.push(step)
        for (const call of rec.calls.get(key) ?? ([] as LineageCall[])) changes.push(call.step)
      }
      for (const step of rec.cutSteps.get(id) ?? []) changes.push(step)
      changes.sort((a, b) => a - b)
      return { id, changes, entries: [] }
    })
  }

  /** Rollout → attempts → model calls as known after `step`. */
  at(step: number): LineageView {
    const rollouts: LineageRollout[] = []
    for (const r of this.#rollouts) {
      const version = countUpTo(r.changes, step) - 1
      if (version < 0) continue
      let entry = r.entries[version]
      if (entry === undefined) {
        // Built as of the version's own step: the same entry answers every step up to the next
        // change.
        entry = this.#rec.lineageOf(r.id, r.changes[version] as number)
        r.entries[version] = entry
      }
      if (entry !== undefined) rollouts.push(entry)
    }
    return { rollouts }
  }
}

/** How many of the sorted `steps` are <= `step`. */
function countUpTo(steps: readonly number[], step: number): number {
  let lo = 0
  let hi = steps.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((steps[mid] as number) <= step) lo = mid + 1
    else hi = mid
  }
  return lo
}

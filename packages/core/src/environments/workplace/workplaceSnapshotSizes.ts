import type { JsonValue } from '../../json.ts'
import { replayActions } from './verifyWorkplace.ts'
import { createWorkplaceCodec } from './workplaceCodec.ts'
import type { WorkplaceBase, WorkplaceSession } from './WorkplaceSession.ts'

/** UTF-8 byte length of a string (core has no TextEncoder). */
function utf8Length(text: string): number {
  let n = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x80) n += 1
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4
      i++
    } else n += 3
  }
  return n
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length === 0
    ? 0
    : s.length % 2 === 1
      ? (s[mid] as number)
      : ((s[mid - 1] as number) + (s[mid] as number)) / 2
}

/**
 * The sessions left by each example task's ground-truth calls (replayed like a perfect rollout).
 */
export function exampleGroundTruthSessions(base: WorkplaceBase): WorkplaceSession[] {
  return base.examples.map((e) => replayActions(base, e.ground_truth))
}

/**
 * Snapshot sizes for the example tasks after their ground-truth calls: the JSON bytes of the
 * delta state and of the full-table state, per task and as medians. Pure; the bench times the rest.
 */
export function workplaceSnapshotSizes(base: WorkplaceBase): {
  readonly delta: number[]
  readonly full: number[]
  readonly deltaMedian: number
  readonly fullMedian: number
} {
  const deltaCodec = createWorkplaceCodec(base)
  const fullCodec = createWorkplaceCodec(base, { form: 'full' })
  const bytes = (state: { ok: true; value: JsonValue } | { ok: false }) =>
    state.ok ? utf8Length(JSON.stringify(state.value)) : Number.NaN
  const sessions = exampleGroundTruthSessions(base)
  const delta = sessions.map((s) => bytes(deltaCodec.exportState(s)))
  const full = sessions.map((s) => bytes(fullCodec.exportState(s)))
  return { delta, full, deltaMedian: median(delta), fullMedian: median(full) }
}

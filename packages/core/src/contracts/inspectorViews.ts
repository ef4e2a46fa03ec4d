import type { JsonValue } from '../json.ts'
import type { TraceEvent } from './trace.ts'
import type { SessionRow } from './views.ts'

/** The participant card fields whose change a message panel lists (Redux DevTools' state diff). */
export const CARD_FIELDS = [
  'phase',
  'admission',
  'inflight',
  'tombstones',
  'manifest_digest',
  'checkpoint_id',
] as const
export type CardField = (typeof CARD_FIELDS)[number]

/** One participant card field that differs before and after a step. */
export interface CardChange {
  readonly participant: string
  readonly field: CardField
  /** The value before the step (tombstones: their count). */
  readonly before: JsonValue
  readonly after: JsonValue
  /** Tombstones added at the step (`<rollout>.a<attempt>`), for `field: 'tombstones'`. */
  readonly added?: readonly string[]
}

/**
 * How a message belongs to a request/answer pair: `request` (its answer is another message),
 * `answer` (to an earlier request), `both` (one message carries the call and the participant's
 * answer: a control call with its `result`, an environment call with its status and revision),
 * `none` (a note to itself, a write).
 */
export type PairRole = 'request' | 'answer' | 'both' | 'none'

/**
 * `GET /api/runs/:id/steps/:n/message`: the payload panel of the message at step `n` (n ≥ 1) —
 * the event, the request/answer pair it belongs to, what changed in each participant card at that
 * step, and the session the message is about before and after it.
 */
export interface MessageView {
  readonly step: number
  readonly total: number
  readonly event: TraceEvent
  readonly pair: {
    readonly role: PairRole
    /** The other message of the pair (the answer of a request, the request of an answer). */
    readonly other: TraceEvent | null
    /** What pairs them (`model_call_id policy-call-000001`), when there is a pair. */
    readonly by: string | null
  }
  readonly changes: readonly CardChange[]
  /** The session (`rollout.aN`) the message names, at step n − 1 and at step n. */
  readonly session: {
    readonly key: string
    readonly before: SessionRow | null
    readonly after: SessionRow | null
  } | null
}

/** What a timeline bar stands for. */
export type TimelineBarKind = 'model' | 'tool' | 'parked' | 'stale'

/** One bar of a rollout's lane: a span of virtual time of one attempt. */
export interface TimelineBar {
  readonly kind: TimelineBarKind
  readonly attempt: number
  readonly from_ms: number
  readonly to_ms: number
  /** The step where it starts (a click goes there) and where it ends (null: still open). */
  readonly step: number
  readonly end_step: number | null
  /** Its attempt was retired (or the call aborted); a stale request is always retired. */
  readonly retired: boolean
  /** A call that continues the restored call of attempt N (a relay, or a cut's continuation). */
  readonly continued: boolean
  /** `policy-call-000001`, `/step`, `parked` … */
  readonly label: string
}

/** One rollout's lane. */
export interface TimelineLane {
  readonly rollout: string
  readonly bars: readonly TimelineBar[]
}

/**
 * `GET /api/runs/:id/timeline?step=&offset=&limit=&rollout=`: a Jaeger-like Gantt of the run's
 * virtual time over its first `total` events, one lane per rollout in the order they were first
 * dispatched; `lanes` are lanes `offset` to `offset + limit` of `rollouts` (at 10,000 rollouts
 * the page asks the lanes in view). `deadlines` are the prepare deadlines (prepare start +
 * deadline_ms), `gaps` the restore gaps (checkpoint published → first continued dispatch),
 * `now_ms` the virtual time at `step`. `index` answers `rollout=`: that rollout's lane index.
 */
export interface TimelineView {
  readonly step: number
  readonly total: number
  readonly start_ms: number
  readonly end_ms: number
  readonly now_ms: number
  readonly rollouts: number
  readonly offset: number
  readonly lanes: readonly TimelineLane[]
  readonly deadlines: readonly { readonly ms: number; readonly step: number }[]
  readonly gaps: readonly {
    readonly from_ms: number
    readonly to_ms: number
    readonly from_step: number
    readonly to_step: number
  }[]
  readonly index?: number | null
}

import type { TraceEvent } from '../contracts/trace.ts'
import type { EnvName } from '../contracts/environments.ts'
import type { JsonValue } from '../json.ts'
import type { LineageView, SessionRow } from '../contracts/views.ts'
import type { ParticipantCard } from './participantView.ts'
import type { CutEvent } from './generationCutViews.ts'
import { cutRecordOf, isCutEvent } from './generationCutViews.ts'

/** A value that changes over steps: parallel arrays, binary-searched by step. */
export class StepHistory<T> {
  readonly steps: number[] = []
  readonly values: T[] = []

  /** Records `value` as of `step` (replaces an entry recorded at the same step). */
  set(step: number, value: T): void {
    const n = this.steps.length
    if (n > 0 && this.steps[n - 1] === step) this.values[n - 1] = value
    else {
      this.steps.push(step)
      this.values.push(value)
    }
  }

  /** The value in force after event `step`, or undefined before the first record. */
  at(step: number): T | undefined {
    let lo = 0
    let hi = this.steps.length - 1
    let found = -1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      if ((this.steps[mid] as number) <= step) {
        found = mid
        lo = mid + 1
      } else hi = mid - 1
    }
    return found < 0 ? undefined : this.values[found]
  }

  get last(): T | undefined {
    return this.values[this.values.length - 1]
  }
}

/** One session's view record: the row plus the (immutable) environment session behind it. */
export interface SessionRecord {
  /**
   * Recorded with an empty summary when it has a session; `simulate` fills the summary in once, in
   * place.
   */
  row: SessionRow
  readonly session: unknown
}

/** One model call in the lineage, stamped with the step that admitted it. */
export interface LineageCall {
  readonly model_call_id: string
  readonly parent_call_id: string | null
  readonly relay: boolean
  readonly step: number
}

type LineageRollout = LineageView['rollouts'][number]
type LineageCallView = LineageRollout['attempts'][number]['calls'][number]
type AttemptStatus = LineageRollout['attempts'][number]['status']

/**
 * Everything the views need, recorded as the run goes: the events, and per participant / session
 * / attempt a step-indexed history. Views at any step are binary searches, never a re-run, so a UI
 * stepping back and forth over a 1,000-rollout run stays cheap.
 */
export class Recorder {
  readonly events: TraceEvent[] = []
  readonly participants = new Map<string, StepHistory<ParticipantCard>>()
  readonly participantOrder: string[] = []
  readonly sessions = new Map<string, StepHistory<SessionRecord>>()
  readonly sessionEnv = new Map<string, EnvName>()
  /** Prepare snapshot state per session key (with the step it was taken at). */
  readonly prepared = new Map<string, { readonly step: number; readonly state: JsonValue }>()
  readonly calls = new Map<string, LineageCall[]>()
  readonly attemptStatus = new Map<string, StepHistory<AttemptStatus>>()
  readonly rolloutEnv = new Map<string, EnvName>()
  readonly attemptOrder = new Map<string, number[]>()
  /**
   * Generation-safe cut events (acks, continuations, and the continued calls' coordinates), in step
   * order.
   */
  readonly cutEvents: CutEvent[] = []
  /** Steps at which a rollout's cut records change (lineage versions). */
  readonly cutSteps = new Map<string, number[]>()
  /** Continued call ids (their `generation.coordinates` completes the cut view). */
  readonly #continuedCalls = new Set<string>()
  /** Session records not yet summarised (the run drains it event by event, see `simulate`). */
  readonly unsummarised: SessionRecord[] = []

  get step(): number {
    return this.events.length
  }

  participant(id: string, view: ParticipantCard): void {
    let h = this.participants.get(id)
    if (h === undefined) {
      h = new StepHistory()
      this.participants.set(id, h)
      this.participantOrder.push(id)
    }
    const last = h.last
    if (last !== undefined && sameParticipant(last, view)) return
    h.set(this.step, view)
  }

  session(key: string, env: EnvName, record: SessionRecord): void {
    let h = this.sessions.get(key)
    if (h === undefined) {
      h = new StepHistory()
      this.sessions.set(key, h)
      this.sessionEnv.set(key, env)
    }
    h.set(this.step, record)
    if (record.row.summary === '') this.unsummarised.push(record)
  }

  attempt(rolloutId: string, attempt: number, env: EnvName, status: AttemptStatus): void {
    const key = `${rolloutId}.a${attempt}`
    let h = this.attemptStatus.get(key)
    if (h === undefined) {
      h = new StepHistory()
      this.attemptStatus.set(key, h)
      this.rolloutEnv.set(rolloutId, env)
      const list = this.attemptOrder.get(rolloutId) ?? []
      list.push(attempt)
      this.attemptOrder.set(rolloutId, list)
    }
    if (h.last !== status) h.set(this.step, status)
  }

  /** Keeps a recorded event the cut views need (a no-op for every other event). */
  cutEvent(e: TraceEvent): void {
    if (isCutEvent(e)) {
      if (e.type === 'generation.continue') this.#continuedCalls.add(e.payload.model_call_id)
      const steps = this.cutSteps.get(e.payload.rollout_id) ?? []
      steps.push(e.step)
      this.cutSteps.set(e.payload.rollout_id, steps)
      this.cutEvents.push(e)
    } else if (
      e.type === 'generation.cut' ||
      (e.type === 'generation.coordinates' && this.#continuedCalls.has(e.payload.model_call_id))
    )
      this.cutEvents.push(e)
  }

  /**
   * A lineage call with its `generation_cut` record or its `continues_cut` link, as known at
   * `step`.
   */
  #withCut(call: LineageCall, step: number): LineageCall | LineageCallView {
    let out: LineageCallView | undefined
    for (const e of this.cutEvents) {
      if (e.step > step) break
      if (e.type === 'generation.cut_ack' && e.payload.model_call_id === call.model_call_id)
        out = { ...(out ?? call), generation_cut: cutRecordOf(e) }
      else if (e.type === 'generation.continue' && e.payload.model_call_id === call.model_call_id)
        out = {
          ...(out ?? call),
          continues_cut: {
            model_call_id: e.payload.cut_model_call_id,
            prefix_token_count: e.payload.prefix_token_count,
            prefix_delivery: e.payload.prefix_delivery,
          },
        }
    }
    return out ?? call
  }

  call(rolloutId: string, attempt: number, call: LineageCall): void {
    const key = `${rolloutId}.a${attempt}`
    const list = this.calls.get(key)
    if (list === undefined) this.calls.set(key, [call])
    else list.push(call)
  }

  /** Rollout ids with an attempt, sorted. */
  rolloutIds(): readonly string[] {
    if (this.#rolloutOrder.length !== this.attemptOrder.size)
      this.#rolloutOrder = [...this.attemptOrder.keys()].sort()
    return this.#rolloutOrder
  }

  /** One rollout's lineage entry after `step`; undefined before its first attempt. */
  lineageOf(rolloutId: string, step: number): LineageRollout | undefined {
    const attempts: LineageRollout['attempts'][number][] = []
    for (const attempt of this.attemptOrder.get(rolloutId) ?? []) {
      const key = `${rolloutId}.a${attempt}`
      const status = this.attemptStatus.get(key)?.at(step)
      if (status === undefined) continue
      const calls = callsUpTo(this.calls.get(key) ?? NO_CALLS, step)
      // Only a rollout with generation cuts pays for the lookup (whole-request lineage is
      // unchanged).
      attempts.push({
        attempt,
        status,
        calls: this.cutSteps.has(rolloutId) ? calls.map((c) => this.#withCut(c, step)) : calls,
      })
    }
    return attempts.length === 0
      ? undefined
      : {
          rollout_id: rolloutId,
          environment: this.rolloutEnv.get(rolloutId) ?? 'blackjack',
          attempts,
        }
  }

  #rolloutOrder: string[] = []
}

const NO_CALLS: readonly LineageCall[] = []

/** The calls admitted by `step` (recorded in step order): the list itself when all of them are. */
function callsUpTo(calls: readonly LineageCall[], step: number): readonly LineageCall[] {
  const n = calls.length
  if (n === 0 || (calls[n - 1] as LineageCall).step <= step) return calls
  let lo = 0
  let hi = n
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((calls[mid] as LineageCall).step <= step) lo = mid + 1
    else hi = mid
  }
  return calls.slice(0, lo)
}

function sameParticipant(a: ParticipantCard, b: ParticipantCard): boolean {
  return (
    a.view.phase === b.view.phase &&
    a.view.admission === b.view.admission &&
    a.view.inflight === b.view.inflight &&
    a.tombstoneCount === b.tombstoneCount &&
    a.view.manifest_digest === b.view.manifest_digest &&
    a.view.checkpoint_id === b.view.checkpoint_id
  )
}

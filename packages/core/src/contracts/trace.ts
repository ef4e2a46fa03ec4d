import type { JsonValue } from '../json.ts'
import type { EnvName } from './environments.ts'
import type { ErrorCode } from './errors.ts'
import type { CutDisposition, CutKind, PrefixDelivery } from './generationCuts.ts'

/** Phases a trace event belongs to (docs/protocol.md §12.2). */
export const TRACE_PHASES = [
  'run',
  'prepare',
  'retire',
  'commit',
  'restore',
  'resume',
  'continue',
  'abort',
] as const
export type TracePhase = (typeof TRACE_PHASES)[number]

/**
 * Participant ids: `controller`, `policy_model`, `model_worker_<k>`, `agent`, `resources_<env>`,
 * `generation_worker`, `token_store`, `directory`, `rollout_<id>`.
 */
export type ParticipantId = string

/**
 * The events of generation-safe cuts (docs/protocol.md §11.6): tokens show as counts, never one
 * event per token.
 */
export const GENERATION_CUT_EVENT_TYPES = [
  'generation.cut',
  'token.stage_prefix',
  'generation.cut_ack',
  'model.egress_fenced',
  'model.egress_released',
  'generation.claim_cut',
  'generation.continue',
] as const

/** Every event type the simulator emits, once (the prose catalogue is simulator/EVENTS.md). */
export const TRACE_EVENT_TYPES = [
  // data plane (rollouts)
  'run.dispatch',
  'env.start',
  'agent.boundary',
  'model.request',
  'generation.stage',
  'token.stage',
  'generation.coordinates',
  'model.response',
  'env.request',
  'env.verify',
  'run.complete',
  'agent.acknowledge',
  // control plane
  'agent.prepare',
  'model.pause',
  'model.worker_close',
  'model.worker_ack',
  'model.worker_register',
  'model.status',
  'agent.status',
  'agent.prepare_deadline',
  'model.abort_inflight',
  'agent.retire',
  'rollout.retired',
  'model.task_exit',
  'resources.prepare',
  'resources.retire',
  'agent.commit',
  'model.commit',
  'resources.commit',
  'token_store.snapshot',
  'directory.write',
  'directory.verify',
  'fault.corrupt_file',
  'model.restore',
  'agent.restore',
  'resources.restore',
  'model.resume',
  'resources.resume',
  'agent.resume',
  'controller.abort',
  'controller.publish_refused',
  'controller.restore_abandoned',
  ...GENERATION_CUT_EVENT_TYPES,
  // recorded runs only (docs/recording.md): exchanges the simulator has no message for
  'participant.capabilities',
  'participant.call',
] as const
export type TraceEventType = (typeof TRACE_EVENT_TYPES)[number]

/** An execution identity in a payload. */
type Ids = { readonly rollout_id: string; readonly attempt_index: number }
/**
 * A controller → participant control call: the participant's answer when `ok`, its message when
 * refused.
 */
type Control = {
  readonly checkpoint_id: string
  readonly result?: JsonValue
  readonly message?: string
}
/** One recorded HTTP exchange (a recorded run's event, docs/recording.md). */
type Exchange = {
  readonly exchange: number
  readonly participant: string
  readonly method: string
  readonly path: string
  readonly http_status: number | null
  readonly ms: number
  readonly request: JsonValue
  readonly response: JsonValue
}
/** A delayed request of an old attempt (`stale_request`). */
type Stale = { readonly delayed?: true }

/** The declared fields of each event type's payload (simulator/EVENTS.md describes them). */
type PayloadFields = {
  'run.dispatch': Ids &
    Stale & {
      readonly environment: EnvName
      readonly continued: boolean
      readonly generation: number | null
    }
  'env.start': Ids & {
    readonly path: string
    readonly session_id: string | null
    readonly revision: number | null
    readonly status: number
  }
  'agent.boundary': Ids & {
    readonly boundary_index: number
    readonly last_committed_model_call_id: string | null
    readonly resource_state_revisions: { readonly [env: string]: number }
    readonly parked: boolean
  }
  'model.request': Ids &
    Stale & {
      readonly model_call_id: string | null
      readonly parent_call_id: string | null
      readonly relay: boolean
      readonly turn?: number
    }
  'generation.stage': Ids & { readonly model_call_id: string }
  'token.stage': Ids & {
    readonly model_call_id: string
    readonly staging_key: string
    readonly delta_len: number
  }
  'generation.coordinates': Ids & {
    readonly model_call_id: string
    readonly staging_key: string
    readonly prev_len: number
    readonly delta_len: number
    readonly cum_len: number
  }
  'model.response': Ids & {
    readonly model_call_id: string
    readonly parent_call_id: string | null
    readonly relay: boolean
    readonly text: string
  }
  'env.request': Ids &
    Stale & {
      readonly path: string
      readonly request_id: string
      readonly revision_before: number | null
      readonly revision: number | null
      readonly status: number
      readonly replayed: boolean
      readonly success: boolean
    }
  'env.verify': Ids & {
    readonly path: string
    readonly reward: number
    readonly revision_before: number | null
    readonly revision: number | null
    readonly success: boolean
  }
  'run.complete': Ids & { readonly reward: number; readonly receipt: JsonValue }
  'agent.acknowledge': { readonly receipts: JsonValue[]; readonly idempotent: number }
  'agent.prepare': Control & { readonly deadline_ms: number }
  'model.pause': Control & { readonly deadline_ms: number }
  'model.worker_close': { readonly checkpoint_id: string; readonly worker: number }
  'model.worker_ack': { readonly checkpoint_id: string; readonly worker: number }
  'model.worker_register': { readonly worker: number }
  'model.status': Control
  'agent.status': Control
  'agent.prepare_deadline': Control
  'model.abort_inflight': Control & Ids
  'agent.retire': Control & Ids
  'rollout.retired': Ids
  'model.task_exit': Ids & { readonly ticket: string }
  'resources.prepare': Control
  'resources.retire': Control & Ids
  'agent.commit': Control & { readonly attempt: number }
  'model.commit': Control & { readonly attempt: number }
  'resources.commit': Control & { readonly attempt: number }
  'token_store.snapshot': { readonly checkpoint_id: string; readonly staging_keys: number }
  'directory.write': {
    readonly checkpoint_id: string
    readonly path: string
    readonly bytes: number
    readonly crashed: boolean
  }
  // reader → directory: one bounded batch of a namespace folder's files read, hashed against their
  // manifest and checked (publish and restore)
  'directory.verify': {
    readonly checkpoint_id: string
    readonly path: string
    readonly files: number
    readonly bytes: number
    readonly checked: number
    readonly total: number
    readonly problems: number
  }
  'fault.corrupt_file': {
    readonly checkpoint_id: string
    readonly path: string
    readonly offset: number
  }
  'model.restore': Control
  'agent.restore': Control
  'resources.restore': Control & { readonly expected: number; readonly activated: number }
  'model.resume': Control
  'resources.resume': Control
  'agent.resume': Control
  'controller.abort': { readonly checkpoint_id: string; readonly reason: string }
  'controller.publish_refused': {
    readonly checkpoint_id: string
    readonly manifest: string
    readonly code: string
    readonly message: string
  }
  'controller.restore_abandoned': { readonly checkpoint_id: string; readonly reason: string }
  // policy_model → generation_worker / model_worker_<k>: freeze [0, k) of one frozen ticket's
  // active buffer
  'generation.cut': Ids & {
    readonly checkpoint_id: string
    readonly cut_id: string
    readonly worker: number
    readonly ticket: string
    readonly model_call_id: string
    readonly prefix_token_count: number
    readonly inventory_digest: string
  }
  // worker → token_store: stage the frozen prefix as segment `staging_key` and wait for durability
  // (outcome `generation_cut_failed` when it cannot)
  'token.stage_prefix': Ids & {
    readonly checkpoint_id: string
    readonly model_call_id: string
    readonly staging_key: string
    readonly prefix_token_count: number
    readonly prefix_digest: string
    readonly durable: boolean
  }
  // worker → policy_model: the ticket's durable disposition (wire: `durable_prefix` or
  // `durable_failure`)
  'generation.cut_ack': Ids & {
    readonly checkpoint_id: string
    readonly cut_id: string
    readonly worker: number
    readonly model_call_id: string
    readonly disposition: CutDisposition
    readonly cut_kind: CutKind | null
    readonly prefix_token_count: number | null
    readonly prefix_digest: string | null
    readonly staging_keys: readonly string[]
  }
  // policy_model → agent: no response bytes of this frozen ticket reach the caller until the
  // checkpoint's disposition is known
  'model.egress_fenced': Ids & {
    readonly checkpoint_id: string
    readonly model_call_id: string
    readonly ticket: string
  }
  // policy_model → agent: the fence lifts (`aborted`: the held response is delivered; `committed`:
  // it is dropped, N+1 continues the call)
  'model.egress_released': Ids & {
    readonly checkpoint_id: string
    readonly model_call_id: string
    readonly disposition: 'committed' | 'aborted'
    readonly delivered: boolean
  }
  // worker → policy_model (restored): lease the restored cut of `cut_model_call_id` to this
  // worker's call of N+1
  'generation.claim_cut': Ids & {
    readonly checkpoint_id: string
    readonly worker: number
    readonly model_call_id: string
    readonly cut_model_call_id: string
    readonly staging_keys: readonly string[]
  }
  // policy_model → worker (restored): continue the call from token k, the prefix delivered `staged`
  // or `inline`
  'generation.continue': Ids & {
    readonly worker: number
    readonly model_call_id: string
    readonly cut_model_call_id: string
    readonly prefix_token_count: number
    readonly prefix_digest: string
    readonly prefix_delivery: PrefixDelivery
    /** The token the new active buffer starts at: k when the swap was atomic. */
    readonly resume_from: number
    readonly continuation_token_count: number
  }
  // recorded runs (docs/recording.md): every recorded event carries its exchange — route, status,
  // duration, request and answer (simulator/EVENTS.md, "Recorded runs")
  'participant.capabilities': Exchange
  'participant.call': Exchange
}

/**
 * The payload of each event type: its declared fields, and JSON like any payload (so a generic
 * reader, such as a message label, can still look a field up by name).
 */
export type TracePayloads = {
  [T in keyof PayloadFields]: PayloadFields[T] & { readonly [key: string]: JsonValue }
}

// Every listed type has a payload and every payload a listed type (a compile-time check).
const typesHavePayloads: [
  Exclude<TraceEventType, keyof TracePayloads>,
  Exclude<keyof TracePayloads, TraceEventType>,
] extends [never, never]
  ? true
  : false = true
void typesHavePayloads

/**
 * Event types whose payload is a control call's answer (`checkpoint_id`, `result` or `message`).
 */
export type ControlEventType = {
  [T in TraceEventType]: PayloadFields[T] extends Control ? T : never
}[TraceEventType]

/** What a control event carries besides the call's `checkpoint_id` and its `result` / `message`. */
export type ControlFields<T extends ControlEventType> = Omit<PayloadFields[T], keyof Control>

/** `ok`, or the protocol error code the receiver answered with. */
export type TraceOutcome = 'ok' | ErrorCode

/** One message of type `T` between participants, numbered from 1 (docs/protocol.md §12.2). */
export interface TraceEventOf<T extends TraceEventType> {
  readonly step: number
  readonly time_ms: number
  readonly phase: TracePhase
  readonly from: ParticipantId
  readonly to: ParticipantId
  readonly type: T
  readonly payload: TracePayloads[T]
  readonly outcome: TraceOutcome
}

/** One message between participants: a union over the event types, so `type` narrows `payload`. */
export type TraceEvent = { [T in TraceEventType]: TraceEventOf<T> }[TraceEventType]

/**
 * Any message a sequence diagram can draw: the shape of a `TraceEvent` without the catalogue, so
 * the renderers draw a hand-made or bad trace instead of refusing it.
 */
export interface TraceMessage {
  readonly step: number
  readonly time_ms: number
  readonly phase: TracePhase
  readonly from: ParticipantId
  readonly to: ParticipantId
  readonly type: string
  readonly payload: { readonly [key: string]: JsonValue }
  readonly outcome: string
}

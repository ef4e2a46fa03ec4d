import type { JsonValue } from '../json.ts'

/** Phases a trace event belongs to (CONTRACTS.md §2). */
export const TRACE_PHASES = ['run', 'prepare', 'retire', 'commit', 'restore', 'resume', 'continue', 'abort'] as const
export type TracePhase = (typeof TRACE_PHASES)[number]

/**
 * Participant ids: `controller`, `policy_model`, `model_worker_<k>`, `agent`, `resources_<env>`,
 * `generation_worker`, `token_store`, `directory`, `rollout_<id>`.
 */
export type ParticipantId = string

/** One message between participants, numbered from 1 (CONTRACTS.md §2). */
export interface TraceEvent {
  readonly step: number
  readonly time_ms: number
  readonly phase: TracePhase
  readonly from: ParticipantId
  readonly to: ParticipantId
  readonly type: string
  readonly payload: { readonly [key: string]: JsonValue }
  /** `ok`, or the protocol error code the receiver answered with. */
  readonly outcome: string
}

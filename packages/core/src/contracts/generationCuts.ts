/**
 * Generation-safe cuts (docs/protocol.md §11): the run's cut mode and the shapes a
 * cut leaves in traces, answers, the ledger, the token store and the inspector's views. Names are
 * the stack's wire names (`nemo_gym/_checkpoint/generation_cut.py`) where it has them.
 */

/** How prepare treats a model call still generating at the deadline (default `whole-request`). */
export const CUT_MODES = ['whole-request', 'generation-safe'] as const
export type CutMode = (typeof CUT_MODES)[number]
export const DEFAULT_CUT_MODE: CutMode = 'whole-request'

/** The durable disposition every frozen admission ticket reaches (docs/protocol.md §11.2). */
export const CUT_DISPOSITIONS = [
  'not_started',
  'completed_durable',
  'durable_prefix',
  'durable_failure',
  'excluded',
] as const
export type CutDisposition = (typeof CUT_DISPOSITIONS)[number]

/**
 * What a `durable_prefix` froze: a call still generating, or one finished behind the egress fence.
 */
export const CUT_KINDS = ['active_prefix', 'terminal_completion'] as const
export type CutKind = (typeof CUT_KINDS)[number]

/**
 * How a continued call receives its prefix: the worker reads the staged segments, or the framework
 * hands the tokens in.
 */
export const PREFIX_DELIVERIES = ['staged', 'inline'] as const
export type PrefixDelivery = (typeof PREFIX_DELIVERIES)[number]

/** The model's aggregate of every managed worker's cut acknowledgement (`generation_cut_proof`). */
export interface GenerationCutProof {
  readonly cut_id: string
  readonly inventory_digest: string
  readonly membership_digest: string
  readonly proof_digest: string
  /** The acknowledging workers, in order. */
  readonly workers: readonly number[]
}

/**
 * One ledger `generation_cut` record: the disposition of a frozen ticket of a continued rollout.
 */
export interface GenerationCutRecord {
  readonly model_call_id: string
  readonly disposition: CutDisposition
  readonly cut_kind?: CutKind
  readonly staging_keys?: readonly string[]
  readonly prefix_token_count?: number
  readonly prefix_digest?: string
}

/**
 * A model call's cut as the Sessions detail shows it: the pre-cut prefix (attempt N, durable in the
 * token store) and the continuation generated under N+1, each with its length and digest.
 */
export interface GenerationCutView {
  /** The cut call of attempt N. */
  readonly model_call_id: string
  readonly rollout_id: string
  readonly attempt: number
  readonly disposition: CutDisposition
  readonly cut_kind: CutKind | null
  /** Segment identities (`tq/<model_call_id>/seg-<n>`). */
  readonly staging_keys: readonly string[]
  readonly prefix_token_count: number
  readonly prefix_digest: string | null
  /** The call of attempt N+1 that continued the prefix (null until it is issued). */
  readonly continued_by: string | null
  readonly prefix_delivery: PrefixDelivery | null
  readonly continuation_token_count: number | null
  readonly continuation_digest: string | null
  /** Prefix + continuation: the tokens of the same call never interrupted. */
  readonly total_token_count: number | null
  /** Steps of the `generation.cut` and `generation.continue` events (null when not reached). */
  readonly cut_step: number
  readonly continue_step: number | null
}

/** A token-store segment of a checkpoint directory with its digest status (Manifests tab). */
export interface TokenSegmentView {
  /** `token-store/segments/<model_call_id>.seg-<n>.json`. */
  readonly path: string
  readonly staging_key: string
  readonly model_call_id: string
  readonly segment: number
  readonly token_count: number
  /** The SHA-256 the token-store manifest lists. */
  readonly sha256: string
  readonly status: 'ok' | 'digest_mismatch' | 'missing'
}

/**
 * Error codes, by name from the protocol where it defines them (docs/protocol.md §8.1). Every error
 * that leaves Cutover (API envelope, control route, CLI problem) carries one of these.
 */
export const ERROR_CODES = [
  // control fence (docs/protocol.md §3.1)
  'stale_checkpoint',
  'checkpoint_conflict',
  'invalid_phase',
  'deadline_exceeded',
  'unauthorized',
  // policy model (§3.2)
  'checkpoint_parked',
  'stale_attempt',
  'not_a_policy_instance',
  'ledger_not_quiescent',
  'ledger_not_checkpointable',
  'ledger_mismatch',
  'missing_workers',
  'worker_registration_rejected',
  'restored_cut_already_owned',
  'restored_cut_consumed',
  // generation-safe cuts (docs/protocol.md §11.3, §11.5; the two restore codes are Cutover's names)
  'generation_cut_failed',
  'restored_cut_segment_missing',
  'restored_cut_digest_mismatch',
  // agent (§3.3)
  'agent_prepare_incomplete',
  'agent_admission_closed',
  'agent_checkpoint_error',
  'duplicate_execution',
  'completed_execution_acknowledgement_error',
  // resources (§3.4)
  'resources_checkpoint_error',
  'resources_session_unbound',
  'resource_mutation_uncertain',
  'resource_revision_mismatch',
  'resource_request_receipt_error',
  'resource_receipt_capacity_exhausted',
  'resource_receipt_evicted',
  'unsafe_resources_restore',
  'execution_identity_mismatch',
  // controller
  'prepare_incomplete',
  // an answer that does not fit its schema (docs/real-stack.md): the message names the participant,
  // the route and the field
  'participant_protocol_error',
  // a restore target that already finished this checkpoint (restored and resumed): it is live
  'participant_already_live',
  // checkpoint directories on a real file system: a full disk, a path that cannot be a directory
  'storage_full',
  'checkpoint_dir_invalid',
  // HTTP controller transport (§3.5 transport limits)
  'transport_error',
  'invalid_response',
  'response_too_large',
  // API
  'invalid_request',
  'malformed_json',
  'payload_too_large',
  'not_found',
  'run_not_found',
  'scenario_not_found',
  'session_not_found',
  'checkpoint_not_found',
  'file_not_found',
  'path_escape',
  // inspecting a checkpoint directory (docs/http-api.md)
  'not_a_checkpoint_directory',
  'path_not_allowed',
  // a stored run whose deterministic re-simulation no longer reproduces its trace
  // (docs/http-api.md)
  'run_diverged',
  // a view of a run still waiting for its simulation slot
  'run_not_started',
  // a stored run whose run.json fails its digest (never served as if whole)
  'run_damaged',
  'internal_error',
  // API security refusals (docs/security.md)
  'host_not_allowed',
  'cross_origin_refused',
  'too_many_runs',
  'too_many_streams',
  'data_dir_full',
] as const

export type ErrorCode = (typeof ERROR_CODES)[number]

/**
 * The one error envelope of `/api/*`, the control routes and the participants' data planes
 * (docs/http-api.md, docs/real-stack.md): `detail` repeats `message`, because Gym clients read
 * `detail`.
 */
export interface ErrorBody {
  readonly error: { readonly code: ErrorCode; readonly message: string; readonly detail: string }
}

/** The error envelope of `code` and `message` (the only way one is built). */
export const errorBody = (code: ErrorCode, message: string): ErrorBody => ({
  error: { code, message, detail: message },
})

/** A protocol or API failure as a value. */
export interface CutoverError {
  readonly code: ErrorCode
  readonly message: string
}

export const cutoverError = (code: ErrorCode, message: string): CutoverError => ({ code, message })

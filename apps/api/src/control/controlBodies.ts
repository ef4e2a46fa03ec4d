import { z } from 'zod'
import { ROLLOUT_ID_PATTERN } from './executionIdentity.ts'

/**
 * A control body's `schema_version`: 1, or absent — the real NeMo-RL controller sends none, and
 * Gym's `CheckpointControlRequest` defaults it to 1 (docs/real-stack.md). Any other version is
 * refused.
 */
export const controlSchemaVersion = z.literal(1).optional()

/**
 * The fields every control request body carries (docs/protocol.md §3.1): strict, extra fields
 * forbidden.
 */
export const controlBase = {
  schema_version: controlSchemaVersion,
  checkpoint_id: z
    .string()
    .min(1)
    .max(128)
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
      'a checkpoint id is 1–128 of [A-Za-z0-9._-], not starting with . _ or -',
    ),
  deadline_ts: z.number().nonnegative().finite(),
}

/** prepare / pause / resume: nothing beyond the base fields. */
export const operationBody = z.strictObject(controlBase)
/** `GET …/status?checkpoint_id=…`. */
export const statusQuery = z.strictObject({ checkpoint_id: controlBase.checkpoint_id })
/** commit / restore: the checkpoint directory (inside the participant's data directory). */
export const directoryBody = z.strictObject({
  ...controlBase,
  checkpoint_dir: z.string().min(1).max(4096),
})
/** retire / abort_inflight: one execution identity. */
export const identityBody = z.strictObject({
  ...controlBase,
  rollout_id: z.string().max(512).regex(ROLLOUT_ID_PATTERN),
  attempt_index: z.number().int().nonnegative().max(1_000_000_000),
})

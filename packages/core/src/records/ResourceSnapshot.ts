import { z } from 'zod'
import { jsonValueSchema } from '../jsonValueSchema.ts'
import { ID_PATTERN } from './idPattern.ts'

/**
 * The ResourceSnapshot schema version Cutover writes (v2 carries mutation receipts,
 * docs/protocol.md §5.3).
 */
export const RESOURCE_SNAPSHOT_SCHEMA_VERSION = 2

/** docs/protocol.md §5.3 `ResourceMutationReceipt`: the recorded outcome of one fenced mutation. */
export const resourceMutationReceiptSchema = z.object({
  request_id: z.string().min(1),
  expected_revision: z.number().int().nonnegative().optional(),
  input_digest: z.string().regex(/^[0-9a-f]{64}$/),
  status: z.number().int().min(100).max(599),
  headers: z.array(z.tuple([z.string(), z.string()])),
  body_base64: z.string(),
  resulting_revision: z.number().int().nonnegative().optional(),
})
export type ResourceMutationReceipt = z.infer<typeof resourceMutationReceiptSchema>

/**
 * docs/protocol.md §12.5 `ResourceSnapshot`: one session's exported state at a checkpoint, written
 * to `D/resources/<server_name>/<rollout_id>.a<attempt>.json`. `state` is the environment codec's
 * form; `created_at` is virtual milliseconds.
 */
export const resourceSnapshotSchema = z.object({
  schema_version: z.literal(RESOURCE_SNAPSHOT_SCHEMA_VERSION),
  rollout_id: z.string().regex(ID_PATTERN),
  attempt_index: z.number().int().nonnegative(),
  state_revision: z.number().int().nonnegative(),
  state: jsonValueSchema,
  mutation_receipts: z.array(resourceMutationReceiptSchema),
  created_at: z.number().int().nonnegative(),
})

/**
 * The earlier generation's snapshot (Gym's `nemo_gym/checkpoint/resources.py`, which the real
 * resources servers ran): schema 1, extra fields forbidden, a `state` object, `created_at` in
 * (float) seconds, no mutation receipts. Read, never written (docs/real-stack.md).
 */
export const resourceSnapshotV1Schema = z.strictObject({
  schema_version: z.literal(1),
  rollout_id: z.string().regex(ID_PATTERN),
  attempt_index: z.number().int().nonnegative(),
  state_revision: z.number().int().nonnegative(),
  state: z.record(z.string(), jsonValueSchema),
  created_at: z.number().nonnegative().finite(),
})
export type ResourceSnapshotV1 = z.infer<typeof resourceSnapshotV1Schema>

/**
 * A snapshot as the directory layer holds it: schema 2 as written, or a schema 1 file read into the
 * same shape (`fromSnapshotV1`: no receipts, `created_at` in milliseconds) with its version kept.
 */
export type ResourceSnapshot = Omit<z.infer<typeof resourceSnapshotSchema>, 'schema_version'> & {
  readonly schema_version: typeof RESOURCE_SNAPSHOT_SCHEMA_VERSION | 1
}

/** A schema 1 snapshot in the shape every reader takes. */
export const fromSnapshotV1 = (v1: ResourceSnapshotV1): ResourceSnapshot => ({
  schema_version: 1,
  rollout_id: v1.rollout_id,
  attempt_index: v1.attempt_index,
  state_revision: v1.state_revision,
  state: v1.state,
  mutation_receipts: [],
  created_at: Math.round(v1.created_at * 1000),
})

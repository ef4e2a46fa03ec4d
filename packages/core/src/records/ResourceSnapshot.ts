import { z } from 'zod'
import { jsonValueSchema } from '../jsonValueSchema.ts'
import { ID_PATTERN } from './idPattern.ts'

/**
 * The ResourceSnapshot schema version Cutover writes (v2 carries mutation receipts, PROTOCOL.md
 * §5.3).
 */
export const RESOURCE_SNAPSHOT_SCHEMA_VERSION = 2

/** PROTOCOL.md §5.3 `ResourceMutationReceipt`: the recorded outcome of one fenced mutation. */
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
 * CONTRACTS.md §5 `ResourceSnapshot`: one session's exported state at a checkpoint, written to
 * `D/resources/<server_name>/<rollout_id>.a<attempt>.json`. `state` is the environment codec's
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
export type ResourceSnapshot = z.infer<typeof resourceSnapshotSchema>

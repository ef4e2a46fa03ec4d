import { z } from 'zod'
import { jsonValueSchema } from '../jsonValueSchema.ts'
import type { AgentBoundaryRecord, ContinuationRoot, ExecutionIdentity, LineageRow } from '../protocol/records.ts'
import { ID_PATTERN } from './layout.ts'

/**
 * Runtime schemas for the protocol records as they sit on disk. Kept beside the directory (their
 * only reader) rather than in protocol/records.ts so the record types stay dependency-free.
 */

const rolloutId = z.string().regex(ID_PATTERN)
const attempt = z.number().int().nonnegative()
const revision = z.number().int().nonnegative()

export const executionIdentitySchema = z.strictObject({ rollout_id: rolloutId, attempt_index: attempt })

export const agentBoundaryRecordSchema = z.strictObject({
  rollout_id: rolloutId,
  attempt_index: attempt,
  boundary_index: z.number().int().nonnegative(),
  turn_index: z.number().int().nonnegative(),
  boundary_kind: z.literal('turn_complete'),
  output_items: z.array(jsonValueSchema),
  usage: jsonValueSchema,
  last_committed_model_call_id: z.string().min(1).nullable(),
  resource_state_revisions: z.record(z.string().regex(ID_PATTERN), revision),
  agent_state: z.record(z.string(), jsonValueSchema),
  created_at: z.number().nonnegative(),
})

export const lineageRowSchema = z.strictObject({
  model_call_id: z.string().min(1),
  parent_call_id: z.string().min(1).nullable(),
  rollout_id: rolloutId,
  attempt_index: attempt,
  prev_len: z.number().int().nonnegative(),
  delta_len: z.number().int().nonnegative(),
  cum_len: z.number().int().nonnegative(),
  weight_version: z.number().int().nonnegative(),
  staging_key: z.string().min(1),
  admitted_at: z.number().nonnegative(),
  failure_reason: z.string().nullable(),
})

export const continuationRootSchema = z.strictObject({
  schema_version: z.literal(1),
  rollout_id: rolloutId,
  attempt_index: attempt,
  capture_key: z.string().min(1),
  last_committed_model_call_id: z.string().min(1),
  resource_state_revisions: z.record(z.string().regex(ID_PATTERN), revision),
})

// The schemas must produce exactly the shared record types (a compile-time check).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const checks: [
  Same<z.infer<typeof executionIdentitySchema>, ExecutionIdentity>,
  Same<z.infer<typeof lineageRowSchema>, LineageRow>,
  Same<z.infer<typeof continuationRootSchema>, ContinuationRoot>,
] = [true, true, true]
void checks
/** Parsed records are assignable to the shared (readonly) record type. */
export const asAgentBoundaryRecord = (value: z.infer<typeof agentBoundaryRecordSchema>): AgentBoundaryRecord => value

import { z } from 'zod'
import { countSchema, rolloutIdSchema } from './ExecutionIdentity.ts'
import type { Same } from './sameType.ts'

/**
 * One token-free lineage row of the policy model's ledger (docs/protocol.md §5.1, simulator
 * subset).
 */
export interface LineageRow {
  readonly model_call_id: string
  readonly parent_call_id: string | null
  readonly rollout_id: string
  readonly attempt_index: number
  readonly prev_len: number
  readonly delta_len: number
  readonly cum_len: number
  readonly weight_version: number
  readonly staging_key: string
  readonly admitted_at: number
  readonly failure_reason: string | null
}

export const lineageRowSchema = z.strictObject({
  model_call_id: z.string().min(1),
  parent_call_id: z.string().min(1).nullable(),
  rollout_id: rolloutIdSchema,
  attempt_index: countSchema,
  prev_len: z.number().int().nonnegative(),
  delta_len: z.number().int().nonnegative(),
  cum_len: z.number().int().nonnegative(),
  weight_version: z.number().int().nonnegative(),
  staging_key: z.string().min(1),
  admitted_at: z.number().nonnegative(),
  failure_reason: z.string().nullable(),
})

const check: Same<z.infer<typeof lineageRowSchema>, LineageRow> = true
void check

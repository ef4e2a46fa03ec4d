import { z } from 'zod'
import type { JsonValue } from '../json.ts'
import { jsonValueSchema } from '../jsonValueSchema.ts'
import { countSchema, rolloutIdSchema } from './ExecutionIdentity.ts'
import { ID_PATTERN } from './idPattern.ts'

/** An agent's committed turn boundary (docs/protocol.md §3.3, schema 1 on disk). */
export interface AgentBoundaryRecord {
  readonly rollout_id: string
  readonly attempt_index: number
  readonly boundary_index: number
  readonly turn_index: number
  readonly boundary_kind: 'turn_complete'
  readonly output_items: readonly JsonValue[]
  readonly usage: JsonValue
  readonly last_committed_model_call_id: string | null
  readonly resource_state_revisions: { readonly [serverName: string]: number }
  readonly agent_state: { readonly [key: string]: JsonValue }
  readonly created_at: number
}

export const agentBoundaryRecordSchema = z.strictObject({
  rollout_id: rolloutIdSchema,
  attempt_index: countSchema,
  boundary_index: z.number().int().nonnegative(),
  turn_index: z.number().int().nonnegative(),
  boundary_kind: z.literal('turn_complete'),
  output_items: z.array(jsonValueSchema),
  usage: jsonValueSchema,
  last_committed_model_call_id: z.string().min(1).nullable(),
  resource_state_revisions: z.record(z.string().regex(ID_PATTERN), countSchema),
  agent_state: z.record(z.string(), jsonValueSchema),
  created_at: z.number().nonnegative(),
})

// Parsed records are assignable to the shared (readonly) record type.
const check = (value: z.infer<typeof agentBoundaryRecordSchema>): AgentBoundaryRecord => value
void check

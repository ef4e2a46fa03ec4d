import { z } from 'zod'
import { countSchema, rolloutIdSchema } from './ExecutionIdentity.ts'
import { ID_PATTERN } from './idPattern.ts'
import type { Same } from './sameType.ts'

/**
 * A continuation root: an agent record that names a committed model call
 * (docs/protocol.md §5.2).
 */
export interface ContinuationRoot {
  readonly schema_version: 1
  readonly rollout_id: string
  readonly attempt_index: number
  readonly capture_key: string
  readonly last_committed_model_call_id: string
  readonly resource_state_revisions: { readonly [serverName: string]: number }
}

export const continuationRootSchema = z.strictObject({
  schema_version: z.literal(1),
  rollout_id: rolloutIdSchema,
  attempt_index: countSchema,
  capture_key: z.string().min(1),
  last_committed_model_call_id: z.string().min(1),
  resource_state_revisions: z.record(z.string().regex(ID_PATTERN), countSchema),
})

const check: Same<z.infer<typeof continuationRootSchema>, ContinuationRoot> = true
void check

import { z } from 'zod'
import type { Result } from '@cutover/core'
import {
  agentBoundaryRecordSchema,
  continuationRootSchema,
  err,
  executionIdentitySchema,
  ok,
} from '@cutover/core'
import type { CutoverError } from '@cutover/core/contracts'
import { cutoverError } from '@cutover/core/contracts'
import { describeIssues } from '../http/jsonBody.ts'

/**
 * What Cutover's HTTP controller requires of each participant answer (docs/real-stack.md): exactly
 * the fields it reads, with their types; anything else a participant adds is allowed (the real
 * Gym participants answer with fields of their own, and without some of Cutover's — a resources
 * restore is `{sessions, source_checkpoint_id}`). An answer that does not fit is
 * `participant_protocol_error` (`checkAnswer`), never a TypeError further on.
 */

const count = z.number().int().nonnegative()
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a lowercase SHA-256 digest')
const admission = z.enum(['accepting', 'draining', 'paused'])
/** Any JSON object: an answer whose fields the controller does not read. */
const anyObject = z.looseObject({})

export const ANSWERS = {
  capabilities: z.looseObject({
    component: z.string(),
    name: z.string(),
    schema_version: z.number().int(),
    checkpoint_mode: z.string(),
    admission_states: z.array(z.string()).optional(),
    instance_role: z.string().nullable().optional(),
    multi_process: z.looseObject({ mode: z.string(), num_workers: z.number().int().optional() }),
  }),
  agentStatus: z.looseObject({
    ready_to_commit: z.boolean(),
    running: count,
    completed_unacknowledged: count,
    blocking_attempts: z.array(z.string()),
    completed_unacknowledged_attempts: z.array(z.unknown()),
  }),
  agentCommit: z.looseObject({
    records: count,
    manifest_digest: sha256,
    continuation_roots: z.array(continuationRootSchema),
  }),
  agentRestore: z.looseObject({
    records: count,
    source_checkpoint_id: z.string(),
    records_list: z.array(agentBoundaryRecordSchema),
  }),
  modelAdmission: z.looseObject({ state: admission }),
  modelStatus: z.looseObject({
    state: admission,
    inflight: z.array(z.looseObject(executionIdentitySchema.shape)),
  }),
  modelWorkers: z.looseObject({
    state: admission,
    per_worker: z.record(z.string(), z.looseObject({ acknowledged: z.boolean() })).optional(),
  }),
  modelCommit: z.looseObject({ manifest_digest: sha256 }),
  modelRestore: z.looseObject({ state: admission.optional() }),
  tokenSnapshot: z.looseObject({ snapshot: z.unknown() }),
  resourcesPrepare: z.looseObject({ sessions: count, state: z.literal('prepared') }),
  resourcesCommit: z.looseObject({ sessions: count, manifest_digest: sha256 }),
  resourcesRestore: z.looseObject({
    sessions: count,
    source_checkpoint_id: z.string(),
    activated: z.array(z.string()).optional(),
  }),
  resumed: z.looseObject({ state: z.string() }),
  any: anyObject,
} as const

/**
 * `reply`, unless it is an answer that does not fit `schema`: then `participant_protocol_error`
 * naming the participant, the route and the field (`where` is `participant (url) METHOD path`).
 */
export function checkAnswer<S extends z.ZodType>(
  reply: Result<unknown, CutoverError>,
  schema: S,
  where: string,
): Result<z.infer<S>, CutoverError> {
  if (!reply.ok) return reply
  const parsed = schema.safeParse(reply.value)
  if (parsed.success) return ok(reply.value as z.infer<S>)
  return err(
    cutoverError(
      'participant_protocol_error',
      `${where}: the answer does not fit: ${describeIssues(parsed.error)}`,
    ),
  )
}

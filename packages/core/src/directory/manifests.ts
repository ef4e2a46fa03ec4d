import { z } from 'zod'
import {
  AGENT_SCHEMA_VERSION,
  AGGREGATE_SCHEMA_VERSION,
  LEDGER_SCHEMA_VERSION,
  MARKER_SCHEMA_VERSION,
  RESOURCES_MANIFEST_SCHEMA_VERSION,
  TOKEN_STORE_SCHEMA_VERSION,
} from './layout.ts'
import { ID_PATTERN } from '../records/idPattern.ts'
import { jsonValueSchema } from '../jsonValueSchema.ts'
import { executionIdentitySchema } from '../records/ExecutionIdentity.ts'

/**
 * Manifest shapes of every namespace of D (docs/protocol.md §12.5, §5), with their schemas.
 */

const sha256 = z.string().regex(/^[0-9a-f]{64}$/)
const checkpointId = z.string().min(1).max(128).regex(ID_PATTERN)
const serverName = z.string().regex(ID_PATTERN)
/**
 * File name → SHA-256. Names are checked for escapes separately, so a bad name is `path_escape`.
 */
const filesMap = z.record(z.string(), sha256)

export const ledgerRolloutEntrySchema = z.strictObject({
  files: filesMap,
  rows: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
})

export const storageReferenceSchema = z.strictObject({
  capture_key: z.string().min(1),
  boundary_model_call_id: z.string().min(1),
  kind: z.literal('token_capture_staging'),
  key: z.string().min(1),
})

/**
 * One `generation_cut` record of the ledger (docs/protocol.md §11.4): a frozen ticket's
 * disposition.
 */
export const generationCutEntrySchema = z.strictObject({
  rollout_id: z.string().regex(ID_PATTERN),
  attempt_index: z.number().int().nonnegative(),
  model_call_id: z.string().min(1),
  disposition: z.enum([
    'not_started',
    'completed_durable',
    'durable_prefix',
    'durable_failure',
    'excluded',
  ]),
  cut_kind: z.enum(['active_prefix', 'terminal_completion']).optional(),
  staging_keys: z.array(z.string().min(1)).optional(),
  prefix_token_count: z.number().int().nonnegative().optional(),
  prefix_digest: sha256.optional(),
  effective_output_limit: z.number().int().positive().optional(),
})
export type GenerationCutEntry = z.infer<typeof generationCutEntrySchema>

/** Model ledger manifest, schema 2 (namespaced by server name). */
export const ledgerManifestSchema = z.strictObject({
  schema_version: z.literal(LEDGER_SCHEMA_VERSION),
  checkpoint_id: checkpointId,
  server_name: serverName,
  rollouts: z.record(z.string(), ledgerRolloutEntrySchema),
  tombstones: z.array(executionIdentitySchema),
  source_attempts: z.array(executionIdentitySchema),
  excluded_inactive: z.array(executionIdentitySchema),
  continuation_roots: z.number().int().nonnegative(),
  continuation_roots_sha256: sha256,
  storage_references: z.array(storageReferenceSchema),
  /**
   * Present only in generation-safe checkpoints that froze tickets (a whole-request manifest is
   * unchanged).
   */
  generation_cuts: z.array(generationCutEntrySchema).optional(),
})
export type LedgerManifest = z.infer<typeof ledgerManifestSchema>
export type StorageReference = z.infer<typeof storageReferenceSchema>

/** Agent manifest, schema 1: one JSON file per boundary record. */
export const agentManifestSchema = z.strictObject({
  schema_version: z.literal(AGENT_SCHEMA_VERSION),
  checkpoint_id: checkpointId,
  instance_name: z.string().min(1).max(512),
  files: filesMap,
})
export type AgentManifest = z.infer<typeof agentManifestSchema>

/** Resources manifest: one ResourceSnapshot file per session. */
export const resourcesManifestSchema = z.strictObject({
  schema_version: z.literal(RESOURCES_MANIFEST_SCHEMA_VERSION),
  checkpoint_id: checkpointId,
  server_name: serverName,
  files: filesMap,
})
export type ResourcesManifest = z.infer<typeof resourcesManifestSchema>

export const PARTICIPANT_KINDS = ['policy_model', 'agent', 'resources'] as const
export type ParticipantKind = (typeof PARTICIPANT_KINDS)[number]

export const aggregateParticipantSchema = z.strictObject({
  participant_id: z.string().min(1),
  name: serverName,
  base_url: z.string(),
  kind: z.enum(PARTICIPANT_KINDS),
  capabilities: z.record(z.string(), jsonValueSchema),
})
export type AggregateParticipant = z.infer<typeof aggregateParticipantSchema>

export const liveMembershipEntrySchema = z.strictObject({
  rollout_id: z.string().regex(ID_PATTERN),
  attempt_index: z.number().int().nonnegative(),
  state: z.enum(['running', 'terminal']),
})
export type LiveMembershipEntry = z.infer<typeof liveMembershipEntrySchema>

/** The aggregate Gym manifest (docs/protocol.md §5.5), written after every participant manifest. */
export const aggregateManifestSchema = z.strictObject({
  schema_version: z.literal(AGGREGATE_SCHEMA_VERSION),
  checkpoint_id: checkpointId,
  participants: z.array(aggregateParticipantSchema),
  participant_results: z.record(z.string(), jsonValueSchema),
  live_membership: z.array(liveMembershipEntrySchema),
  files: filesMap,
  integrity_sha256: sha256,
})
export type AggregateManifest = z.infer<typeof aggregateManifestSchema>

/** The simulated token store's snapshot manifest, written after the aggregate. */
export const tokenStoreManifestSchema = z.strictObject({
  schema_version: z.literal(TOKEN_STORE_SCHEMA_VERSION),
  checkpoint_id: checkpointId,
  aggregate_manifest_sha256: sha256,
  staging_keys: z.array(z.string().min(1)),
  snapshot: jsonValueSchema,
  /** Segment files of generation-safe cuts by path (absent when there are none). */
  segments: z
    .record(
      z.string(),
      z.strictObject({
        staging_key: z.string().min(1),
        model_call_id: z.string().min(1),
        segment: z.number().int().nonnegative(),
        tokens: z.number().int().nonnegative(),
        sha256,
      }),
    )
    .optional(),
})
export type TokenStoreManifest = z.infer<typeof tokenStoreManifestSchema>

const artifactSchema = z.strictObject({ path: z.string(), sha256 })

/** The global marker `checkpoint.json`, written last of all. */
export const checkpointMarkerSchema = z.strictObject({
  schema_version: z.literal(MARKER_SCHEMA_VERSION),
  checkpoint_id: checkpointId,
  aggregate_manifest: artifactSchema,
  token_store_manifest: artifactSchema,
})
export type CheckpointMarker = z.infer<typeof checkpointMarkerSchema>

/** The first zod issue as one line, for `schema_error` messages. */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0]
  if (!issue) return 'does not match the schema'
  const where = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)'
  return `${where}: ${issue.message}`
}

import { z } from 'zod'
import type { JsonValue } from '../json.ts'

/** A stored response replayed for a repeated resources request id (PROTOCOL.md §5.3). */
export interface ResourceMutationReceipt {
  readonly request_id: string
  readonly expected_revision: number | null
  /** sha256 of method, path, query, canonical content type, sorted cookies and body. */
  readonly input_digest: string
  readonly status: number
  readonly headers: readonly (readonly [string, string])[]
  readonly body_base64: string
  readonly resulting_revision: number | null
}

/** One session's exported state (CONTRACTS.md §5). `created_at` is virtual ms. */
export interface ResourceSnapshot {
  readonly schema_version: number
  readonly rollout_id: string
  readonly attempt_index: number
  readonly state_revision: number
  readonly state: JsonValue
  readonly mutation_receipts: readonly ResourceMutationReceipt[]
  readonly created_at: number
}

export const RESOURCE_SNAPSHOT_SCHEMA_VERSION = 2

const idPattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

const jsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(jsonValue), z.record(z.string(), jsonValue)]),
)

export const resourceMutationReceiptSchema = z.strictObject({
  request_id: z.string().min(1).max(512),
  expected_revision: z.number().int().nonnegative().nullable(),
  input_digest: z.string().regex(/^[0-9a-f]{64}$/),
  status: z.number().int(),
  headers: z.array(z.tuple([z.string(), z.string()])),
  body_base64: z.string(),
  resulting_revision: z.number().int().nonnegative().nullable(),
})

export const resourceSnapshotSchema = z.strictObject({
  schema_version: z.number().int().min(1).max(RESOURCE_SNAPSHOT_SCHEMA_VERSION),
  rollout_id: z.string().regex(idPattern),
  attempt_index: z.number().int().nonnegative(),
  state_revision: z.number().int().nonnegative(),
  state: jsonValue,
  mutation_receipts: z.array(resourceMutationReceiptSchema).max(1024),
  created_at: z.number().nonnegative(),
})

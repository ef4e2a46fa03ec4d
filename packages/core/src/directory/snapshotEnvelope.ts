import { z } from 'zod'
import type { ResourceSnapshot } from '../records/ResourceSnapshot.ts'
import {
  RESOURCE_SNAPSHOT_SCHEMA_VERSION,
  fromSnapshotV1,
  resourceSnapshotSchema,
  resourceSnapshotV1Schema,
} from '../records/ResourceSnapshot.ts'
import { ID_PATTERN } from '../records/idPattern.ts'
import type { JsonValue } from '../json.ts'
import { describeZodError } from './manifests.ts'

/**
 * ResourceSnapshot validation without walking `state` through zod's recursive JSON union, which
 * dominated a 1,000-session commit (a Blackjack state alone holds 625 RNG words). The envelope is
 * checked by the shared schema; `state` by a direct walk (writes) or not at all (reads: whatever
 * JSON.parse returns is JSON).
 */
const envelopeSchema = resourceSnapshotSchema.extend({ state: z.unknown() })

/** A plain object (`{}` or `Object.create(null)`), not an array or a class instance. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
}

/**
 * True when `value` is JSON: null, booleans, finite numbers, strings, arrays and plain objects of
 * JSON.
 */
export function isJsonValue(value: unknown, depth = 0): value is JsonValue {
  if (depth > 512) return false
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value)
  if (Array.isArray(value)) {
    for (const item of value) if (!isJsonValue(item, depth + 1)) return false
    return true
  }
  if (isPlainObject(value)) {
    for (const item of Object.values(value)) if (!isJsonValue(item, depth + 1)) return false
    return true
  }
  return false
}

/** zod's `z.number().int().nonnegative()`: a safe integer ≥ 0. */
export const isCount = (value: unknown): boolean =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
const optionalCount = (value: unknown): boolean => value === undefined || isCount(value)
const SHA256_HEX = /^[0-9a-f]{64}$/

/**
 * A direct check that `value` is a valid ResourceSnapshot (its receipts included), without zod: it
 * never passes what the schema refuses (property test); whatever it does not pass, the schema
 * decides.
 */
export function isResourceSnapshot(value: unknown): boolean {
  if (!isPlainObject(value)) return false
  const receipts = value['mutation_receipts']
  return (
    value['schema_version'] === RESOURCE_SNAPSHOT_SCHEMA_VERSION &&
    typeof value['rollout_id'] === 'string' &&
    ID_PATTERN.test(value['rollout_id']) &&
    isCount(value['attempt_index']) &&
    isCount(value['state_revision']) &&
    isCount(value['created_at']) &&
    Array.isArray(receipts) &&
    receipts.every(
      (receipt: unknown) =>
        isPlainObject(receipt) &&
        typeof receipt['request_id'] === 'string' &&
        receipt['request_id'].length >= 1 &&
        optionalCount(receipt['expected_revision']) &&
        typeof receipt['input_digest'] === 'string' &&
        SHA256_HEX.test(receipt['input_digest']) &&
        typeof receipt['status'] === 'number' &&
        Number.isSafeInteger(receipt['status']) &&
        receipt['status'] >= 100 &&
        receipt['status'] <= 599 &&
        Array.isArray(receipt['headers']) &&
        receipt['headers'].every(
          (h: unknown) =>
            Array.isArray(h) &&
            h.length === 2 &&
            typeof h[0] === 'string' &&
            typeof h[1] === 'string',
        ) &&
        typeof receipt['body_base64'] === 'string' &&
        optionalCount(receipt['resulting_revision']),
    ) &&
    isJsonValue(value['state'])
  )
}

/** Validates a snapshot about to be written; a message when it is not a valid ResourceSnapshot. */
export function checkSnapshotForWrite(snapshot: ResourceSnapshot): string | undefined {
  // The snapshots the servers build pass the direct check; anything else gets the schema's message.
  if (isResourceSnapshot(snapshot)) return undefined
  const checked = envelopeSchema.safeParse(snapshot)
  if (!checked.success) return describeZodError(checked.error)
  if (!isJsonValue(snapshot.state))
    return 'state: not JSON (undefined, a non-finite number or a class instance)'
  return undefined
}

/**
 * Parses a snapshot read back from D (already JSON-parsed): schema 2, or schema 1 as the earlier
 * Gym generation writes it (`fromSnapshotV1`); any other version is refused with schema 2's
 * message.
 */
export function parseSnapshotFromFile(
  value: unknown,
): { ok: true; value: ResourceSnapshot } | { ok: false; message: string } {
  if (isPlainObject(value) && value['schema_version'] === 1) {
    const v1 = resourceSnapshotV1Schema.safeParse(value)
    return v1.success
      ? { ok: true, value: fromSnapshotV1(v1.data) }
      : { ok: false, message: describeZodError(v1.error) }
  }
  const checked = envelopeSchema.safeParse(value)
  if (!checked.success) return { ok: false, message: describeZodError(checked.error) }
  return {
    ok: true,
    value: { ...checked.data, state: checked.data.state as JsonValue } as ResourceSnapshot,
  }
}

import { z } from 'zod'
import type { ResourceSnapshot } from '../records/ResourceSnapshot.ts'
import { resourceSnapshotSchema } from '../records/ResourceSnapshot.ts'
import type { JsonValue } from '../json.ts'
import { describeZodError } from './manifests.ts'

/**
 * ResourceSnapshot validation without walking `state` through zod's recursive JSON union, which
 * dominated a 1,000-session commit (a Blackjack state alone holds 625 RNG words). The envelope is
 * checked by the shared schema; `state` by a direct walk (writes) or not at all (reads: whatever
 * JSON.parse returns is JSON).
 */
const envelopeSchema = resourceSnapshotSchema.extend({ state: z.unknown() })

/** True when `value` is JSON: null, booleans, finite numbers, strings, arrays and plain objects of JSON. */
export function isJsonValue(value: unknown, depth = 0): value is JsonValue {
  if (depth > 512) return false
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value)
  if (Array.isArray(value)) {
    for (const item of value) if (!isJsonValue(item, depth + 1)) return false
    return true
  }
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value) as unknown
    if (proto !== Object.prototype && proto !== null) return false
    for (const item of Object.values(value)) if (!isJsonValue(item, depth + 1)) return false
    return true
  }
  return false
}

/** Validates a snapshot about to be written; a message when it is not a valid ResourceSnapshot. */
export function checkSnapshotForWrite(snapshot: ResourceSnapshot): string | undefined {
  const checked = envelopeSchema.safeParse(snapshot)
  if (!checked.success) return describeZodError(checked.error)
  if (!isJsonValue(snapshot.state)) return 'state: not JSON (undefined, a non-finite number or a class instance)'
  return undefined
}

/** Parses a snapshot read back from D (already JSON-parsed). */
export function parseSnapshotFromFile(value: unknown): { ok: true; value: ResourceSnapshot } | { ok: false; message: string } {
  const checked = envelopeSchema.safeParse(value)
  if (!checked.success) return { ok: false, message: describeZodError(checked.error) }
  return { ok: true, value: { ...checked.data, state: checked.data.state as JsonValue } as ResourceSnapshot }
}

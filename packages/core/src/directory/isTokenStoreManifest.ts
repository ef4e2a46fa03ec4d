import type { TokenStoreManifest } from './manifests.ts'
import { tokenStoreManifestSchema } from './manifests.ts'
import { isJsonValue, isPlainObject } from './snapshotEnvelope.ts'

/**
 * A direct check that `value` is a valid token-store manifest, for the one the publish builds:
 * zod's walk of its `snapshot` (every staged token) and `staging_keys` was ≈ 250 ms of one step at
 * 10,000 rollouts. Those two are checked directly; the rest (ids, the aggregate digest, segments)
 * by the schema itself. It never accepts what `tokenStoreManifestSchema` refuses (property test); a
 * caller asks the schema whenever it says no, so what is refused, and the message, stay the
 * schema's.
 */
export function isTokenStoreManifest(value: unknown): value is TokenStoreManifest {
  if (!isPlainObject(value)) return false
  const keys = value['staging_keys']
  if (!Array.isArray(keys) || !keys.every((k) => typeof k === 'string' && k.length >= 1))
    return false
  if (!('snapshot' in value) || !isJsonValue(value['snapshot'])) return false
  return tokenStoreManifestSchema.safeParse({ ...value, staging_keys: [], snapshot: null }).success
}

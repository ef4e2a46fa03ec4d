import type { AggregateManifest } from './manifests.ts'
import { aggregateManifestSchema } from './manifests.ts'
import { parseJsonFile } from './jsonFile.ts'
import type { ManifestRead } from './namespaceChecks.ts'
import { validatedByDigest } from './validatedByDigest.ts'

/**
 * What `aggregateManifestSchema.parse` returns for a valid aggregate manifest, built without zod:
 * the schema's objects in the schema's key order (zod rebuilds strict objects in shape order),
 * records and arrays as parsed. Only for a value the schema accepts (property test: equal to zod's
 * output, key order included).
 */
export function aggregateInSchemaOrder(m: AggregateManifest): AggregateManifest {
  return {
    schema_version: m.schema_version,
    checkpoint_id: m.checkpoint_id,
    participants: m.participants.map((p) => ({ participant_id: p.participant_id, name: p.name, base_url: p.base_url, kind: p.kind, capabilities: p.capabilities })),
    participant_results: m.participant_results,
    live_membership: m.live_membership.map((e) => ({ rollout_id: e.rollout_id, attempt_index: e.attempt_index, state: e.state })),
    files: m.files,
    integrity_sha256: m.integrity_sha256,
  }
}

/**
 * After publishing the aggregate manifest (`bytes`, already checked against the schema), records
 * its validated read under its digest, as `readManifest` would have produced it, so the token-store
 * publish and the restore that read it next do not walk its one-entry-per-file map through zod
 * again (the digest check of the bytes they read still runs).
 */
export function primeAggregateRead(bytes: Uint8Array, sha256: string): void {
  validatedByDigest(aggregateManifestSchema, sha256, (): ManifestRead<AggregateManifest> => {
    const parsed = parseJsonFile(bytes)
    if (!parsed.ok) return { ok: false, problems: [] }
    return { ok: true, manifest: aggregateInSchemaOrder(parsed.value as AggregateManifest), sha256 }
  })
}

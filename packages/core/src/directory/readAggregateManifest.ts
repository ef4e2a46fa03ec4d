import type { AggregateManifest } from './manifests.ts'
import { aggregateManifestSchema } from './manifests.ts'
import type { DirectoryView } from './DirectoryView.ts'
import { isAggregateManifest } from './isAggregateManifest.ts'
import { AGGREGATE_MANIFEST_PATH } from './layout.ts'
import type { ManifestRead } from './namespaceChecks.ts'
import { readManifest } from './namespaceChecks.ts'

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
    participants: m.participants.map((p) => ({
      participant_id: p.participant_id,
      name: p.name,
      base_url: p.base_url,
      kind: p.kind,
      capabilities: p.capabilities,
    })),
    participant_results: m.participant_results,
    live_membership: m.live_membership.map((e) => ({
      rollout_id: e.rollout_id,
      attempt_index: e.attempt_index,
      state: e.state,
    })),
    files: m.files,
    integrity_sha256: m.integrity_sha256,
  }
}

/**
 * Reads `nemo_gym_checkpoint_manifest.json` (`readManifest`: missing, symlink, schema errors), with
 * a direct check in front of zod: a manifest `isAggregateManifest` accepts is returned as the
 * schema would return it (`aggregateInSchemaOrder`), without zod's walk of its one-entry-per-file
 * map (≈ 50 ms at 10,000 rollouts, once for the token-store publish, the marker and restore each);
 * anything else goes to the schema, with its messages.
 */
export function readAggregateManifest(view: DirectoryView): ManifestRead<AggregateManifest> {
  return readManifest(view, AGGREGATE_MANIFEST_PATH, aggregateManifestSchema, (value) =>
    isAggregateManifest(value) ? aggregateInSchemaOrder(value) : undefined,
  )
}

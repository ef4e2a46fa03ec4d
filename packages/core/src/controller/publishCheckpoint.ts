import type { JsonValue } from '../json.ts'
import { canonicalJson } from '../json.ts'
import type { CheckpointSink } from '../protocol/checkpointIo.ts'
import { jsonBytes } from '../protocol/checkpointIo.ts'

export const AGGREGATE_PATH = 'nemo_gym_checkpoint_manifest.json'
export const TOKEN_STORE_PATH = 'token-store/manifest.json'
export const MARKER_PATH = 'checkpoint.json'

/** One participant as the aggregate manifest lists it (PROTOCOL.md §5.5). */
export interface AggregateParticipant {
  readonly participant_id: string
  readonly name: string
  readonly base_url: string
  readonly kind: 'policy_model' | 'agent' | 'resources'
  readonly capabilities: JsonValue
}

/**
 * Writes the aggregate Gym manifest after every participant manifest: `files` covers every file
 * under model-ledger/, agent/ and resources/ with its SHA-256; `integrity_sha256` hashes that map.
 */
export function writeAggregateManifest(
  sink: CheckpointSink,
  input: {
    readonly checkpoint_id: string
    readonly participants: readonly AggregateParticipant[]
    readonly participant_results: { readonly [key: string]: JsonValue }
    readonly live_membership: readonly { readonly rollout_id: string; readonly attempt_index: number; readonly state: 'running' | 'terminal' }[]
  },
): string {
  const files: { [path: string]: string } = {}
  for (const path of [...sink.list()].sort()) {
    if (!/^(model-ledger|agent|resources)\//.test(path)) continue
    const bytes = sink.read(path)
    if (bytes !== undefined) files[path] = sink.digest.sha256Hex(bytes)
  }
  const manifest = {
    schema_version: 1,
    checkpoint_id: input.checkpoint_id,
    participants: input.participants,
    participant_results: input.participant_results,
    live_membership: input.live_membership,
    files,
    integrity_sha256: sink.digest.sha256Hex(canonicalJson(files)),
  }
  const bytes = jsonBytes(manifest)
  sink.write(AGGREGATE_PATH, bytes)
  return sink.digest.sha256Hex(bytes)
}

/** The token-store snapshot, after the aggregate (it names the aggregate's digest). */
export function writeTokenStoreManifest(sink: CheckpointSink, checkpointId: string, aggregateDigest: string, stagingKeys: readonly string[], snapshot: JsonValue): string {
  const bytes = jsonBytes({ schema_version: 1, checkpoint_id: checkpointId, aggregate_manifest_sha256: aggregateDigest, staging_keys: [...new Set(stagingKeys)].sort(), snapshot })
  sink.write(TOKEN_STORE_PATH, bytes)
  return sink.digest.sha256Hex(bytes)
}

/** The global marker, written last of all. */
export function writeCheckpointMarker(sink: CheckpointSink, checkpointId: string, aggregateDigest: string, tokenStoreDigest: string): string {
  const bytes = jsonBytes({
    schema_version: 1,
    checkpoint_id: checkpointId,
    aggregate_manifest: { path: AGGREGATE_PATH, sha256: aggregateDigest },
    token_store_manifest: { path: TOKEN_STORE_PATH, sha256: tokenStoreDigest },
  })
  sink.write(MARKER_PATH, bytes)
  return sink.digest.sha256Hex(bytes)
}

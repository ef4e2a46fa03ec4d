import type { Digest } from '../ports.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import { createDirectoryView } from './DirectoryView.ts'
import { checkCheckpointId } from './checkCheckpointId.ts'
import { encodeJsonFile } from './jsonFile.ts'
import {
  AGGREGATE_MANIFEST_PATH,
  CHECKPOINT_MARKER_PATH,
  MARKER_SCHEMA_VERSION,
  TOKEN_STORE_MANIFEST_PATH,
} from './layout.ts'
import type { CheckpointMarker } from './manifests.ts'
import { tokenStoreManifestSchema } from './manifests.ts'
import { readManifest } from './namespaceChecks.ts'
import { readAggregateManifest } from './readAggregateManifest.ts'
import type { DirectoryCommitError } from './problems.ts'
import { directoryError, problem, refusal } from './problems.ts'

/**
 * Publishes the global marker `checkpoint.json`, last of all (docs/protocol.md §3.7 "publish global
 * checkpoint LAST"): it names the aggregate and the token-store manifest with their digests. Both
 * must exist for this checkpoint and the token store must be bound to this aggregate. Until the
 * marker exists the directory is an unpublished (torn) commit. Idempotent for the same checkpoint.
 */
export function publishCheckpointMarker(
  dir: CheckpointDirectory,
  digest: Digest,
  input: { readonly checkpoint_id: string },
): Result<{ readonly marker_digest: string }, DirectoryCommitError> {
  const idProblem = checkCheckpointId(input.checkpoint_id)
  if (idProblem) return err(refusal('invalid_request', idProblem))
  const view = createDirectoryView(dir, digest)
  const aggregate = readAggregateManifest(view)
  if (!aggregate.ok) return err(directoryError('checkpoint_not_found', aggregate.problems))
  const tokenStore = readManifest(view, TOKEN_STORE_MANIFEST_PATH, tokenStoreManifestSchema)
  if (!tokenStore.ok) return err(directoryError('checkpoint_not_found', tokenStore.problems))
  for (const id of [aggregate.manifest.checkpoint_id, tokenStore.manifest.checkpoint_id]) {
    if (id !== input.checkpoint_id)
      return err(refusal('checkpoint_conflict', `D holds manifests of checkpoint ${id}`))
  }
  if (tokenStore.manifest.aggregate_manifest_sha256 !== aggregate.sha256) {
    return err(
      directoryError('checkpoint_conflict', [
        problem(
          'digest_mismatch',
          TOKEN_STORE_MANIFEST_PATH,
          'token-store manifest is bound to another aggregate manifest',
        ),
      ]),
    )
  }
  const marker: CheckpointMarker = {
    schema_version: MARKER_SCHEMA_VERSION,
    checkpoint_id: input.checkpoint_id,
    aggregate_manifest: { path: AGGREGATE_MANIFEST_PATH, sha256: aggregate.sha256 },
    token_store_manifest: { path: TOKEN_STORE_MANIFEST_PATH, sha256: tokenStore.sha256 },
  }
  const bytes = encodeJsonFile(marker)
  const marker_digest = digest.sha256Hex(bytes)
  const existing = dir.readFile(CHECKPOINT_MARKER_PATH)
  if (existing !== undefined) {
    if (digest.sha256Hex(existing) !== marker_digest) {
      return err(
        refusal('checkpoint_conflict', `${CHECKPOINT_MARKER_PATH} exists with other content`),
      )
    }
    return ok({ marker_digest })
  }
  dir.writeFile(CHECKPOINT_MARKER_PATH, bytes)
  dir.sync()
  return ok({ marker_digest })
}

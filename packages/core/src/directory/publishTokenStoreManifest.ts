import type { JsonValue } from '../json.ts'
import type { Digest } from '../ports.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import { createDirectoryView } from './DirectoryView.ts'
import { checkCheckpointId } from './checkCheckpointId.ts'
import { encodeJsonFile } from './jsonFile.ts'
import {
  TOKEN_STORE_MANIFEST_PATH,
  TOKEN_STORE_SCHEMA_VERSION,
  ledgerManifestPath,
  tokenSegmentPath,
} from './layout.ts'
import { isTokenStoreManifest } from './isTokenStoreManifest.ts'
import { isSafeRelativePath } from './safePath.ts'
import type { TokenStoreManifest } from './manifests.ts'
import { ledgerManifestSchema, tokenStoreManifestSchema } from './manifests.ts'
import { readManifest } from './namespaceChecks.ts'
import { readAggregateManifest } from './readAggregateManifest.ts'
import type { DirectoryCommitError } from './problems.ts'
import { directoryError, problem, refusal } from './problems.ts'

export interface TokenStoreInput {
  readonly checkpoint_id: string
  /** The staging keys the token store saved (TransferQueue rows the continuations need). */
  readonly staging_keys: readonly string[]
  /** The simulated token store's own snapshot, opaque to the directory. */
  readonly snapshot: JsonValue
  /**
   * Generation-safe cut prefixes: each written as a segment file before the manifest, listed with
   * its SHA-256.
   */
  readonly segments?: readonly TokenSegmentInput[]
}

/** One staged prefix segment of a generation-safe cut. */
export interface TokenSegmentInput {
  readonly staging_key: string
  readonly model_call_id: string
  readonly segment: number
  readonly tokens: readonly number[]
}

/**
 * Publishes `token-store/manifest.json` after the aggregate (docs/protocol.md §3.6 step 5, §3.7):
 * binds the token-store snapshot to the aggregate's digest, and reconciles it with the component
 * manifests — every storage reference of every policy ledger must be among the saved staging keys
 * (`ledger_mismatch` otherwise). Needs the aggregate of this checkpoint (`checkpoint_conflict` /
 * the aggregate's problems otherwise). Idempotent for identical input.
 */
export function publishTokenStoreManifest(
  dir: CheckpointDirectory,
  digest: Digest,
  input: TokenStoreInput,
): Result<{ readonly manifest_digest: string }, DirectoryCommitError> {
  const idProblem = checkCheckpointId(input.checkpoint_id)
  if (idProblem) return err(refusal('invalid_request', idProblem))
  const view = createDirectoryView(dir, digest)
  const aggregate = readAggregateManifest(view)
  if (!aggregate.ok) return err(directoryError('checkpoint_not_found', aggregate.problems))
  if (aggregate.manifest.checkpoint_id !== input.checkpoint_id) {
    return err(
      refusal(
        'checkpoint_conflict',
        `the aggregate belongs to checkpoint ${aggregate.manifest.checkpoint_id}`,
      ),
    )
  }
  const staged = new Set(input.staging_keys)
  for (const participant of aggregate.manifest.participants) {
    if (participant.kind !== 'policy_model') continue
    const path = ledgerManifestPath(participant.name)
    const ledger = readManifest(view, path, ledgerManifestSchema)
    if (!ledger.ok) return err(directoryError('ledger_mismatch', ledger.problems))
    const missing = ledger.manifest.storage_references.filter((r) => !staged.has(r.key))
    if (missing.length > 0) {
      const keys = missing.map((r) => r.key).join(', ')
      return err(
        directoryError('ledger_mismatch', [
          problem('incomplete_set', path, `token store did not save staging keys ${keys}`),
        ]),
      )
    }
  }
  // Segment files first (each listed with its digest), so the manifest never names a file not yet
  // written.
  const segments: NonNullable<TokenStoreManifest['segments']> = {}
  const segmentFiles: { path: string; bytes: Uint8Array }[] = []
  for (const seg of [...(input.segments ?? [])].sort((a, b) =>
    a.staging_key < b.staging_key ? -1 : a.staging_key > b.staging_key ? 1 : 0,
  )) {
    const path = tokenSegmentPath(seg.model_call_id, seg.segment)
    if (!isSafeRelativePath(path))
      return err(refusal('invalid_request', `segment path ${path} escapes the directory`))
    const bytes = encodeJsonFile(seg.tokens)
    segments[path] = {
      staging_key: seg.staging_key,
      model_call_id: seg.model_call_id,
      segment: seg.segment,
      tokens: seg.tokens.length,
      sha256: digest.sha256Hex(bytes),
    }
    segmentFiles.push({ path, bytes })
  }
  const manifest: TokenStoreManifest = {
    schema_version: TOKEN_STORE_SCHEMA_VERSION,
    checkpoint_id: input.checkpoint_id,
    aggregate_manifest_sha256: aggregate.sha256,
    staging_keys: [...staged].sort(),
    snapshot: input.snapshot,
    ...(segmentFiles.length === 0 ? {} : { segments }),
  }
  if (!isTokenStoreManifest(manifest) && !tokenStoreManifestSchema.safeParse(manifest).success)
    return err(refusal('invalid_request', 'token-store snapshot is not JSON'))
  const bytes = encodeJsonFile(manifest)
  const manifest_digest = digest.sha256Hex(bytes)
  const existing = dir.readFile(TOKEN_STORE_MANIFEST_PATH)
  if (existing !== undefined) {
    if (digest.sha256Hex(existing) !== manifest_digest) {
      return err(
        refusal('checkpoint_conflict', `${TOKEN_STORE_MANIFEST_PATH} exists with other content`),
      )
    }
    return ok({ manifest_digest })
  }
  for (const f of segmentFiles)
    if (
      dir.readFile(f.path) === undefined ||
      digest.sha256Hex(dir.readFile(f.path) as Uint8Array) !== segments[f.path]?.sha256
    )
      dir.writeFile(f.path, f.bytes)
  if (segmentFiles.length > 0) dir.sync()
  dir.writeFile(TOKEN_STORE_MANIFEST_PATH, bytes)
  dir.sync()
  return ok({ manifest_digest })
}

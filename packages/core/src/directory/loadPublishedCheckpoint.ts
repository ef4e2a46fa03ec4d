import type { Digest } from '../ports.ts'
import type { Result } from '../result.ts'
import { err } from '../result.ts'
import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import { createDirectoryView } from './DirectoryView.ts'
import { AGGREGATE_MANIFEST_PATH, CHECKPOINT_MARKER_PATH } from './layout.ts'
import type { LoadedAggregateManifest } from './loadAggregateManifest.ts'
import { loadAggregateSteps } from './loadAggregateManifest.ts'
import type { VerifySteps } from './verifySteps.ts'
import { runSteps } from './verifySteps.ts'
import { checkpointMarkerSchema } from './manifests.ts'
import { readManifest } from './namespaceChecks.ts'
import type { NamespaceLoadError } from './problems.ts'
import { directoryError, problem, refusal } from './problems.ts'

/**
 * What the controller reads before any participant restores (PROTOCOL.md §3.5 restore, §5.5):
 * `checkpoint.json` must exist for `checkpointId` and name the aggregate manifest's digest; the
 * aggregate is then loaded and verified (schema, integrity, every listed file present with its
 * digest, nothing unlisted). Missing marker → `checkpoint_not_found` (an unpublished, torn commit).
 */
export function loadPublishedCheckpoint(
  dir: CheckpointDirectory,
  digest: Digest,
  checkpointId: string,
): Result<LoadedAggregateManifest, NamespaceLoadError> {
  return runSteps(loadPublishedSteps(dir, digest, checkpointId))
}

/**
 * `loadPublishedCheckpoint` checking the aggregate's files one bounded batch at a time
 * (`loadAggregateSteps`).
 */
export function* loadPublishedSteps(
  dir: CheckpointDirectory,
  digest: Digest,
  checkpointId: string,
): VerifySteps<Result<LoadedAggregateManifest, NamespaceLoadError>> {
  const view = createDirectoryView(dir, digest)
  const marker = readManifest(view, CHECKPOINT_MARKER_PATH, checkpointMarkerSchema)
  if (!marker.ok) {
    const missing = marker.problems.some((p) => p.code === 'missing_manifest')
    return err(
      directoryError(missing ? 'checkpoint_not_found' : 'invalid_request', marker.problems),
    )
  }
  if (marker.manifest.checkpoint_id !== checkpointId)
    return err(
      refusal(
        'checkpoint_conflict',
        `${CHECKPOINT_MARKER_PATH} is for checkpoint ${marker.manifest.checkpoint_id}, not ${checkpointId}`,
      ),
    )
  const aggregate = yield* loadAggregateSteps(dir, digest)
  if (!aggregate.ok) return aggregate
  if (
    aggregate.value.manifest_digest !== marker.manifest.aggregate_manifest.sha256 ||
    marker.manifest.aggregate_manifest.path !== AGGREGATE_MANIFEST_PATH
  )
    return err(
      directoryError('invalid_request', [
        problem(
          'digest_mismatch',
          AGGREGATE_MANIFEST_PATH,
          `${CHECKPOINT_MARKER_PATH} names another aggregate manifest`,
        ),
      ]),
    )
  if (aggregate.value.manifest.checkpoint_id !== checkpointId)
    return err(
      refusal(
        'checkpoint_conflict',
        `${AGGREGATE_MANIFEST_PATH} is for checkpoint ${aggregate.value.manifest.checkpoint_id}`,
      ),
    )
  return aggregate
}

import type { Digest } from '../ports.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import { createDirectoryView } from './DirectoryView.ts'
import { AGGREGATE_MANIFEST_PATH, CHECKPOINT_MARKER_PATH } from './layout.ts'
import type { LoadedAggregateManifest } from './loadAggregateManifest.ts'
import { checkAggregateSteps } from './loadAggregateManifest.ts'
import type { VerifySteps } from './verifySteps.ts'
import { runSteps } from './verifySteps.ts'
import { checkpointMarkerSchema } from './manifests.ts'
import { readManifest } from './namespaceChecks.ts'
import { readAggregateManifest } from './readAggregateManifest.ts'
import { verifyCheckpointSteps } from './verifyCheckpoint.ts'
import type { NamespaceLoadError, VerifyReport } from './problems.ts'
import { directoryError, problem, refusal } from './problems.ts'

/**
 * What the controller reads before any participant restores (docs/protocol.md §3.5 restore, §5.5):
 * `checkpoint.json` must exist for `checkpointId` and name the aggregate manifest's digest; the
 * aggregate is then loaded and its listed files checked (schema, integrity, every listed file
 * present with its digest, nothing unlisted); and then the whole directory passes the one
 * verification `cutover verify` runs (`verifyCheckpointSteps`: every namespace, the token store and
 * its segments, the marker's digests, nothing outside the layout), so restore and verify cannot
 * disagree. Missing marker → `checkpoint_not_found` (an unpublished, torn commit); any problem →
 * `invalid_request` naming it.
 */
export function loadPublishedCheckpoint(
  dir: CheckpointDirectory,
  digest: Digest,
  checkpointId: string,
): Result<LoadedAggregateManifest, NamespaceLoadError> {
  return runSteps(loadPublishedSteps(dir, digest, checkpointId))
}

/**
 * `loadPublishedCheckpoint` one bounded batch of files at a time: the aggregate's listed files
 * (`checkAggregateSteps`), then the whole verification over the same view, whose batches re-check
 * files already hashed and come marked `recheck` (a trace names each file's check once).
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
  const read = readAggregateManifest(view)
  if (!read.ok) {
    const missing = read.problems.some((p) => p.code === 'missing_manifest')
    return err(directoryError(missing ? 'checkpoint_not_found' : 'invalid_request', read.problems))
  }
  const listed = yield* checkAggregateSteps(view, read.manifest)
  if (listed.length > 0) return err(directoryError('invalid_request', listed))
  if (
    read.sha256 !== marker.manifest.aggregate_manifest.sha256 ||
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
  if (read.manifest.checkpoint_id !== checkpointId)
    return err(
      refusal(
        'checkpoint_conflict',
        `${AGGREGATE_MANIFEST_PATH} is for checkpoint ${read.manifest.checkpoint_id}`,
      ),
    )
  const steps = verifyCheckpointSteps(view)
  let report: VerifyReport
  for (;;) {
    const next = steps.next()
    if (next.done === true) {
      report = next.value
      break
    }
    yield { ...next.value, recheck: true }
  }
  if (!report.valid) return err(directoryError('invalid_request', report.problems))
  return ok({ manifest: read.manifest, manifest_digest: read.sha256 })
}

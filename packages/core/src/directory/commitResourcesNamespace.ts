import type { ResourceSnapshot } from '../records/ResourceSnapshot.ts'
import type { Digest } from '../ports.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import { executionFiles } from './executionFiles.ts'
import { encodeJsonFile } from './jsonFile.ts'
import { ID_PATTERN } from '../records/idPattern.ts'
import {
  RESOURCES_MANIFEST_SCHEMA_VERSION,
  resourcesManifestPath,
  resourcesSnapshotPath,
} from './layout.ts'
import { loadResourcesNamespace } from './loadResourcesNamespace.ts'
import type { ResourcesManifest } from './manifests.ts'
import type { DirectoryCommitError } from './problems.ts'
import { refusal } from './problems.ts'
import { checkCheckpointId } from './checkCheckpointId.ts'
import { checkSnapshotForWrite } from './snapshotEnvelope.ts'
import { writeNamespaceSteps } from './writeNamespace.ts'
import { runSteps } from './verifySteps.ts'

export interface ResourcesCommitInput {
  readonly server_name: string
  readonly checkpoint_id: string
  readonly snapshots: readonly ResourceSnapshot[]
}

export interface ResourcesCommitResult {
  readonly sessions: number
  readonly manifest_digest: string
}

/**
 * Commits `resources/<server_name>/` (docs/protocol.md §3.4 commit, §5.3): one ResourceSnapshot
 * file per session, then the manifest. Refusals (`resources_checkpoint_error`): invalid server
 * name, checkpoint id or snapshot, two snapshots of one session, a namespace holding another
 * checkpoint or other content. Re-committing the same checkpoint returns the existing, verified
 * manifest.
 */
export function commitResourcesNamespace(
  dir: CheckpointDirectory,
  digest: Digest,
  input: ResourcesCommitInput,
): Result<ResourcesCommitResult, DirectoryCommitError> {
  return runSteps(commitResourcesSteps(dir, digest, input))
}

/**
 * `commitResourcesNamespace` writing one bounded batch of snapshot files per step
 * (`writeNamespaceSteps`).
 */
export function* commitResourcesSteps(
  dir: CheckpointDirectory,
  digest: Digest,
  input: ResourcesCommitInput,
): Generator<void, Result<ResourcesCommitResult, DirectoryCommitError>, void> {
  const code = 'resources_checkpoint_error'
  if (!ID_PATTERN.test(input.server_name))
    return err(refusal(code, `invalid server name ${JSON.stringify(input.server_name)}`))
  const idProblem = checkCheckpointId(input.checkpoint_id)
  if (idProblem) return err(refusal(code, idProblem))
  const encoded = executionFiles(input.snapshots, {
    invalid: checkSnapshotForWrite,
    pathOf: (snapshot) => resourcesSnapshotPath(input.server_name, snapshot),
    noun: 'snapshot',
    duplicate: 'two snapshots for session',
  })
  if (!encoded.ok) return err(refusal(code, encoded.error))
  const { items: snapshots } = encoded.value
  const written = yield* writeNamespaceSteps(dir, digest, {
    code,
    checkpoint_id: input.checkpoint_id,
    manifestPath: resourcesManifestPath(input.server_name),
    files: encoded.value.namespace((files) =>
      encodeJsonFile({
        schema_version: RESOURCES_MANIFEST_SCHEMA_VERSION,
        checkpoint_id: input.checkpoint_id,
        server_name: input.server_name,
        files,
      } satisfies ResourcesManifest),
    ),
    loadExisting: () => loadResourcesNamespace(dir, digest, input.server_name),
  })
  if (!written.ok) return written
  return ok({ sessions: snapshots.length, manifest_digest: written.value.manifest_digest })
}

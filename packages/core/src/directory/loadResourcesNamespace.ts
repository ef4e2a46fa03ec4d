import type { ResourceSnapshot } from '../records/ResourceSnapshot.ts'
import type { Digest } from '../ports.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import type { DirectoryView } from './DirectoryView.ts'
import { createDirectoryView } from './DirectoryView.ts'
import { executionFileName, resourcesDir, resourcesManifestPath } from './layout.ts'
import type { ResourcesManifest } from './manifests.ts'
import { resourcesManifestSchema } from './manifests.ts'
import { checkListedFiles, readManifest } from './namespaceChecks.ts'
import { parseJsonFile } from './jsonFile.ts'
import { validatedByDigest } from './validatedByDigest.ts'
import { parseSnapshotFromFile } from './snapshotEnvelope.ts'
import type { CheckpointProblem, NamespaceLoadError } from './problems.ts'
import { directoryError, problem } from './problems.ts'
import type { VerifySteps } from './verifySteps.ts'
import { runSteps } from './verifySteps.ts'

/** A verified resources namespace: nothing in it may be activated unless this was returned. */
export interface LoadedResourcesNamespace {
  readonly manifest: ResourcesManifest
  readonly manifest_digest: string
  /** Sorted by file name (`<rollout_id>.a<attempt>.json`). */
  readonly snapshots: readonly ResourceSnapshot[]
  /** Every file of the namespace (manifest included) by path under D, with its verified SHA-256. */
  readonly file_digests: Readonly<Record<string, string>>
}

/**
 * Loads and verifies `resources/<server_name>/` (docs/protocol.md §5.3): manifest schema and server
 * name, every digest, no unlisted file or symlink, each snapshot's schema, identity equal to its
 * file name, unique receipt ids. Refusal code `resources_checkpoint_error`.
 */
export function loadResourcesNamespace(
  dir: CheckpointDirectory,
  digest: Digest,
  server_name: string,
): Result<LoadedResourcesNamespace, NamespaceLoadError> {
  return loadResourcesFromView(createDirectoryView(dir, digest), server_name)
}

/** `loadResourcesNamespace` over an existing view (shared reads and hashes). */
export function loadResourcesFromView(
  view: DirectoryView,
  server_name: string,
): Result<LoadedResourcesNamespace, NamespaceLoadError> {
  return runSteps(loadResourcesSteps(view, server_name))
}

/** `loadResourcesFromView` one bounded batch of files at a time (`verifySteps`). */
export function* loadResourcesSteps(
  view: DirectoryView,
  server_name: string,
): VerifySteps<Result<LoadedResourcesNamespace, NamespaceLoadError>> {
  const manifestPath = resourcesManifestPath(server_name)
  const read = readManifest(view, manifestPath, resourcesManifestSchema)
  if (!read.ok) return err(directoryError('resources_checkpoint_error', read.problems))
  const manifest = read.manifest
  const problems: CheckpointProblem[] = []
  if (manifest.server_name !== server_name) {
    problems.push(
      problem(
        'schema_error',
        manifestPath,
        `server_name ${manifest.server_name} is not ${server_name}`,
      ),
    )
  }
  const snapshots: ResourceSnapshot[] = []
  const file_digests: Record<string, string> = { [manifestPath]: read.sha256 }
  const fileProblems = yield* checkListedFiles(
    view,
    resourcesDir(server_name),
    manifestPath,
    manifest.files,
    (file) => {
      file_digests[file.path] = file.sha256
      const parsed = validatedByDigest(parseSnapshotFromFile, file.sha256, () => {
        const json = parseJsonFile(file.bytes)
        return json.ok
          ? parseSnapshotFromFile(json.value)
          : { ok: false as const, message: json.error }
      })
      if (!parsed.ok) return problem('schema_error', file.path, parsed.message)
      const snapshot = parsed.value
      if (executionFileName(snapshot) !== file.name)
        return problem(
          'schema_error',
          file.path,
          `holds ${executionFileName(snapshot)}, not the session its name says`,
        )
      const ids = new Set(snapshot.mutation_receipts.map((r) => r.request_id))
      if (ids.size !== snapshot.mutation_receipts.length)
        return problem('schema_error', file.path, 'mutation receipt request ids are not unique')
      snapshots.push(snapshot)
      return undefined
    },
  )
  problems.push(...fileProblems)
  if (problems.length > 0) return err(directoryError('resources_checkpoint_error', problems))
  return ok({ manifest, manifest_digest: read.sha256, snapshots, file_digests })
}

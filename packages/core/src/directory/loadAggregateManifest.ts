import type { Digest } from '../ports.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import type { DirectoryView } from './DirectoryView.ts'
import { createDirectoryView } from './DirectoryView.ts'
import { AGGREGATE_MANIFEST_PATH, PARTICIPANT_NAMESPACES } from './layout.ts'
import type { AggregateManifest } from './manifests.ts'
import { readAggregateManifest } from './readAggregateManifest.ts'
import type { CheckpointProblem, NamespaceLoadError } from './problems.ts'
import { directoryError, problem } from './problems.ts'
import { aggregateIntegrity } from './publishAggregateManifest.ts'
import { isSafeRelativePath } from './safePath.ts'
import type { FileCheck, VerifySteps } from './verifySteps.ts'
import { runSteps, verifySteps } from './verifySteps.ts'

export interface LoadedAggregateManifest {
  readonly manifest: AggregateManifest
  readonly manifest_digest: string
}

/**
 * Loads and verifies the aggregate manifest (docs/protocol.md §5.5): schema, `integrity_sha256`,
 * and every listed path relative, inside a participant namespace, not a symlink, present, with its
 * digest; and no unlisted file under the namespaces. Refusal code `checkpoint_not_found` when it
 * is missing, `invalid_request` when the directory is not a valid checkpoint.
 */
export function loadAggregateManifest(
  dir: CheckpointDirectory,
  digest: Digest,
): Result<LoadedAggregateManifest, NamespaceLoadError> {
  return runSteps(loadAggregateSteps(dir, digest))
}

/**
 * `loadAggregateManifest` checking the listed files one bounded batch at a time
 * (`checkAggregateSteps`).
 */
export function* loadAggregateSteps(
  dir: CheckpointDirectory,
  digest: Digest,
): VerifySteps<Result<LoadedAggregateManifest, NamespaceLoadError>> {
  const view = createDirectoryView(dir, digest)
  const read = readAggregateManifest(view)
  if (!read.ok) {
    const missing = read.problems.some((p) => p.code === 'missing_manifest')
    return err(directoryError(missing ? 'checkpoint_not_found' : 'invalid_request', read.problems))
  }
  const problems = yield* checkAggregateSteps(view, read.manifest)
  if (problems.length > 0) return err(directoryError('invalid_request', problems))
  return ok({ manifest: read.manifest, manifest_digest: read.sha256 })
}

/** The aggregate's own checks over a view (shared with `verifyCheckpoint`). */
export function checkAggregateFiles(
  view: DirectoryView,
  manifest: AggregateManifest,
): CheckpointProblem[] {
  return runSteps(checkAggregateSteps(view, manifest))
}

/**
 * `checkAggregateFiles` folder by folder, one bounded batch of listed files at a time
 * (`verifySteps`): each file is read and hashed, then its bytes are released.
 */
export function* checkAggregateSteps(
  view: DirectoryView,
  manifest: AggregateManifest,
): VerifySteps<CheckpointProblem[]> {
  const problems: CheckpointProblem[] = []
  const integrity = aggregateIntegrity(view.digest, manifest.files)
  if (integrity !== manifest.integrity_sha256) {
    problems.push(
      problem(
        'integrity_mismatch',
        AGGREGATE_MANIFEST_PATH,
        `files map hashes to ${integrity}, manifest says ${manifest.integrity_sha256}`,
      ),
    )
  }
  const inNamespace = (path: string) =>
    PARTICIPANT_NAMESPACES.some((ns) => path.startsWith(`${ns}/`))
  const check = (path: string): FileCheck => {
    const expected = manifest.files[path] as string
    if (!isSafeRelativePath(path)) {
      problems.push(
        problem(
          'path_escape',
          path,
          'aggregate lists a path that is absolute or leaves the directory',
        ),
      )
      return { bytes: 0, problem: true }
    }
    if (!inNamespace(path)) {
      problems.push(
        problem(
          'schema_error',
          path,
          'aggregate lists a file outside model-ledger/, agent/ and resources/',
        ),
      )
      return { bytes: 0, problem: true }
    }
    const entry = view.entries.get(path)
    if (entry?.kind === 'symlink') {
      problems.push(problem('symlink', path, 'listed file is a symlink'))
      return { bytes: 0, problem: true }
    }
    const actual = entry ? view.sha256(path) : undefined
    view.release(path)
    if (actual === undefined) {
      problems.push(
        problem('missing_file', path, `listed in ${AGGREGATE_MANIFEST_PATH} but not present`),
      )
      return { bytes: 0, problem: true }
    }
    if (actual !== expected) {
      problems.push(
        problem(
          'digest_mismatch',
          path,
          `sha256 ${actual} differs from ${expected} in ${AGGREGATE_MANIFEST_PATH}`,
        ),
      )
      return { bytes: entry?.bytes ?? 0, problem: true }
    }
    return { bytes: entry?.bytes ?? 0, problem: false }
  }
  // Sorted paths grouped by their folder: one run of batches per namespace folder.
  const paths = Object.keys(manifest.files).sort()
  for (let i = 0; i < paths.length;) {
    const folder = folderOf(paths[i] as string)
    let j = i + 1
    while (j < paths.length && folderOf(paths[j] as string) === folder) j++
    yield* verifySteps(folder, paths.slice(i, j), check)
    i = j
  }
  for (const ns of PARTICIPANT_NAMESPACES) {
    for (const entry of view.below(ns)) {
      if (manifest.files[entry.path] !== undefined) continue
      if (entry.kind === 'symlink')
        problems.push(problem('symlink', entry.path, 'symlink under a participant namespace'))
      else
        problems.push(
          problem('unlisted_file', entry.path, `not listed in ${AGGREGATE_MANIFEST_PATH}`),
        )
    }
  }
  return problems
}

/** The folder a listed path sits in (`agent`, `resources/counter`); '' for a top-level name. */
const folderOf = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf('/')))

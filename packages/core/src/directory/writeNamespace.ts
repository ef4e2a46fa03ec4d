import type { ErrorCode } from '../contracts/errors.ts'
import type { Digest } from '../ports.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import type { DirectoryCommitError } from './problems.ts'
import { directoryError, refusal } from './problems.ts'
import { VERIFY_BATCH_BYTES, VERIFY_BATCH_FILES, runSteps } from './verifySteps.ts'

/** One file to write, path relative to D. */
export interface PendingFile {
  readonly path: string
  readonly bytes: Uint8Array
}

/**
 * An existing namespace as its loader returns it once loaded and verified (only its manifest's
 * checkpoint id matters here).
 */
export type ExistingNamespace = Result<
  { readonly manifest: { readonly checkpoint_id: string } },
  DirectoryCommitError
>

/**
 * The data files of a namespace, encoded one at a time in write order, and its manifest once their
 * digests are known.
 */
export interface NamespaceFiles {
  readonly count: number
  /** Data file `i` (encoded when asked). */
  file(i: number): PendingFile
  /** The manifest's bytes, given the SHA-256 of every data file in order. */
  manifest(digests: readonly string[]): Uint8Array
}

/**
 * The manifest-last write of one namespace (docs/protocol.md §5): data files, `sync()`, manifest,
 * `sync()`. A namespace that already holds a manifest is immutable: it is loaded and verified, and
 * accepted only when it holds this checkpoint with exactly these bytes (a retried commit); another
 * checkpoint id or changed inputs are refused with `code`. A `DirectoryWriteError` is thrown
 * through: it is the writer's crash, and the caller retries with the same checkpoint id.
 */
export function writeNamespace(
  dir: CheckpointDirectory,
  digest: Digest,
  args: WriteNamespaceArgs,
): Result<{ readonly manifest_digest: string }, DirectoryCommitError> {
  return runSteps(writeNamespaceSteps(dir, digest, args))
}

export interface WriteNamespaceArgs {
  readonly code: ErrorCode
  readonly checkpoint_id: string
  readonly manifestPath: string
  readonly files: NamespaceFiles
  readonly loadExisting: () => ExistingNamespace
}

/**
 * `writeNamespace` one bounded batch of data files at a time: each batch is encoded, hashed and
 * written, then it yields (the caller performs and traces those writes before the next batch is
 * encoded), so no step builds a whole namespace. The same writes in the same order as at once.
 */
export function* writeNamespaceSteps(
  dir: CheckpointDirectory,
  digest: Digest,
  args: WriteNamespaceArgs,
): Generator<void, Result<{ readonly manifest_digest: string }, DirectoryCommitError>, void> {
  const { files } = args
  const existingBytes = dir.readFile(args.manifestPath)
  if (existingBytes !== undefined) {
    const existing = args.loadExisting()
    if (!existing.ok) return err(directoryError(args.code, existing.error.problems))
    if (existing.value.manifest.checkpoint_id !== args.checkpoint_id) {
      return err(
        refusal(
          args.code,
          `${args.manifestPath} already holds checkpoint ${existing.value.manifest.checkpoint_id}; a namespace with a manifest is immutable`,
        ),
      )
    }
    const digests: string[] = []
    for (let i = 0; i < files.count; i++) digests.push(digest.sha256Hex(files.file(i).bytes))
    const manifest_digest = digest.sha256Hex(files.manifest(digests))
    if (digest.sha256Hex(existingBytes) !== manifest_digest) {
      return err(
        refusal(args.code, `${args.manifestPath}: commit inputs changed before the commit retry`),
      )
    }
    return ok({ manifest_digest })
  }
  const digests: string[] = []
  let batchFiles = 0
  let batchBytes = 0
  for (let i = 0; i < files.count; i++) {
    const file = files.file(i)
    digests.push(digest.sha256Hex(file.bytes))
    dir.writeFile(file.path, file.bytes)
    batchFiles++
    batchBytes += file.bytes.length
    if (
      (batchFiles >= VERIFY_BATCH_FILES || batchBytes >= VERIFY_BATCH_BYTES) &&
      i + 1 < files.count
    ) {
      yield
      batchFiles = 0
      batchBytes = 0
    }
  }
  dir.sync()
  const manifestBytes = files.manifest(digests)
  dir.writeFile(args.manifestPath, manifestBytes)
  dir.sync()
  return ok({ manifest_digest: digest.sha256Hex(manifestBytes) })
}

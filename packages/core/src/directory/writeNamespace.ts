import type { ErrorCode } from '../contracts/errors.ts'
import type { Digest } from '../ports.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import type { DirectoryCommitError } from './problems.ts'
import { directoryError, refusal } from './problems.ts'

/** One file to write, path relative to D. */
export interface PendingFile {
  readonly path: string
  readonly bytes: Uint8Array
}

/** An existing namespace as its loader returns it once loaded and verified (only its manifest's checkpoint id matters here). */
export type ExistingNamespace = Result<{ readonly manifest: { readonly checkpoint_id: string } }, DirectoryCommitError>

/**
 * The manifest-last write of one namespace (PROTOCOL.md §5): data files, `sync()`, manifest,
 * `sync()`. A namespace that already holds a manifest is immutable: it is loaded and verified, and
 * accepted only when it holds this checkpoint with exactly these bytes (a retried commit); another
 * checkpoint id or changed inputs are refused with `code`. A `DirectoryWriteError` is thrown
 * through: it is the writer's crash, and the caller retries with the same checkpoint id.
 */
export function writeNamespace(
  dir: CheckpointDirectory,
  digest: Digest,
  args: {
    readonly code: ErrorCode
    readonly checkpoint_id: string
    readonly manifestPath: string
    readonly manifestBytes: Uint8Array
    readonly dataFiles: readonly PendingFile[]
    readonly loadExisting: () => ExistingNamespace
  },
): Result<{ readonly manifest_digest: string }, DirectoryCommitError> {
  const manifest_digest = digest.sha256Hex(args.manifestBytes)
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
    if (digest.sha256Hex(existingBytes) !== manifest_digest) {
      return err(refusal(args.code, `${args.manifestPath}: commit inputs changed before the commit retry`))
    }
    return ok({ manifest_digest })
  }
  for (const file of args.dataFiles) dir.writeFile(file.path, file.bytes)
  dir.sync()
  dir.writeFile(args.manifestPath, args.manifestBytes)
  dir.sync()
  return ok({ manifest_digest })
}

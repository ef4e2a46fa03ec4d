import { existsSync, realpathSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Context } from 'hono'
import type { CheckpointDirectory, ControlFence } from '@cutover/core'
import { FENCE_OPS, directoryWriteCode } from '@cutover/core'
import { fileSystemErrorCode } from '@cutover/core/adapters'
import { cutoverErrorResponse, errorResponse } from '../http/errorResponse.ts'
import { checkpointDirUnder } from './checkpointDirUnder.ts'

/** Where a participant's control routes may open checkpoint directories. */
export interface CheckpointPlace {
  /** Relative `checkpoint_dir` paths are taken relative to it. */
  readonly dataDir: string
  /** `CUTOVER_CHECKPOINT_ROOTS` (default: the data directory alone). */
  readonly checkpointRoots?: readonly string[] | undefined
}

/** The control request a checkpoint directory is opened for. */
export interface DirectoryRequest {
  readonly checkpoint_id: string
  readonly checkpoint_dir: string
}

/**
 * Opens a control request's `checkpoint_dir` for commit (`create`) or restore, or the error
 * response to send, every one in the envelope with a protocol code: `path_escape` outside every
 * checkpoint root (`checkpointDirUnder`); the fence's own refusal before anything is opened or
 * created (docs/real-stack.md: a finished id is `stale_checkpoint`, the same commit or restore
 * asked of another directory `checkpoint_conflict`); `checkpoint_not_found` for a restore from
 * nothing; and a directory the file system refuses as `checkpoint_dir_invalid` (a file, under a
 * file, a symlink) or `storage_full`, its message naming paths relative to the checkpoint roots.
 */
export function openCheckpointDir(
  c: Context,
  place: CheckpointPlace,
  request: DirectoryRequest,
  create: boolean,
  open: (path: string, create: boolean) => CheckpointDirectory,
  fence: ControlFence,
): CheckpointDirectory | Response {
  const requested = request.checkpoint_dir
  const path = checkpointDirUnder(place.dataDir, requested, place.checkpointRoots)
  if (!path.ok) return cutoverErrorResponse(c, path.error)
  const admitted = fence.admits(request.checkpoint_id, create ? 'commit' : 'restore', path.value)
  if (!admitted.ok) return cutoverErrorResponse(c, admitted.error)
  // A commit the fence would refuse (not prepared, another id active) creates no directory; a
  // recorded commit is replayed by the participant, so its phase has moved on.
  if (create && !fence.hasRecorded(request.checkpoint_id, FENCE_OPS.commit.operation)) {
    const phase = fence.requirePhase(request.checkpoint_id, FENCE_OPS.commit.allowed)
    if (!phase.ok) return cutoverErrorResponse(c, phase.error)
  }
  if (!create && !existsSync(path.value))
    return errorResponse(c, 'checkpoint_not_found', `no checkpoint directory at ${requested}`)
  try {
    return open(path.value, create)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const code = directoryWriteCode(error) ?? fileSystemErrorCode(error) ?? 'checkpoint_not_found'
    return errorResponse(
      c,
      code,
      `checkpoint_dir ${JSON.stringify(requested)}: ${relativeToRoots(message, [
        place.dataDir,
        ...(place.checkpointRoots ?? []),
      ])}`,
    )
  }
}

/** `text` with the checkpoint roots' absolute paths taken out of every path it names. */
function relativeToRoots(text: string, roots: readonly string[]): string {
  const absolute = new Set(
    roots.flatMap((root) => [resolve(root), existsSync(root) ? realpathSync(root) : '']),
  )
  // the longest first, so a root inside another is taken out whole
  let out = text
  for (const root of [...absolute].sort((a, b) => b.length - a.length))
    if (root !== '') out = out.split(`${root}/`).join('').split(root).join('.')
  return out
}

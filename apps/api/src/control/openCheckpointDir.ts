import { existsSync } from 'node:fs'
import type { Context } from 'hono'
import type { CheckpointDirectory } from '@cutover/core'
import { cutoverErrorResponse, errorResponse } from '../http/errorResponse.ts'
import { checkpointDirUnder } from './checkpointDirUnder.ts'

/** Where a participant's control routes may open checkpoint directories. */
export interface CheckpointPlace {
  /** Relative `checkpoint_dir` paths are taken relative to it. */
  readonly dataDir: string
  /** `CUTOVER_CHECKPOINT_ROOTS` (default: the data directory alone). */
  readonly checkpointRoots?: readonly string[] | undefined
}

/**
 * Opens a control request's `checkpoint_dir` (under a checkpoint root, `checkpointDirUnder`;
 * `create` for commit), or the error response to send: `path_escape`, or `checkpoint_not_found`
 * for a restore from nothing.
 */
export function openCheckpointDir(
  c: Context,
  place: CheckpointPlace,
  requested: string,
  create: boolean,
  open: (path: string, create: boolean) => CheckpointDirectory,
): CheckpointDirectory | Response {
  const path = checkpointDirUnder(place.dataDir, requested, place.checkpointRoots)
  if (!path.ok) return cutoverErrorResponse(c, path.error)
  if (!create && !existsSync(path.value))
    return errorResponse(c, 'checkpoint_not_found', `no checkpoint directory at ${requested}`)
  try {
    return open(path.value, create)
  } catch (error) {
    return errorResponse(
      c,
      'checkpoint_not_found',
      `cannot open ${requested}: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
}

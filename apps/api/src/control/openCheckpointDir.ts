import { existsSync } from 'node:fs'
import type { Context } from 'hono'
import type { CheckpointDirectory } from '@cutover/core'
import { cutoverErrorResponse, errorResponse } from '../http/errorResponse.ts'
import { checkpointDirUnder } from './checkpointDirUnder.ts'

/**
 * Opens a control request's `checkpoint_dir` (inside the data directory; `create` for commit), or
 * the error response to send: `path_escape`, or `checkpoint_not_found` for a restore from nothing.
 */
export function openCheckpointDir(
  c: Context,
  dataDir: string,
  requested: string,
  create: boolean,
  open: (path: string, create: boolean) => CheckpointDirectory,
): CheckpointDirectory | Response {
  const path = checkpointDirUnder(dataDir, requested)
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

import type { CutoverError, ErrorCode } from '../contracts/errors.ts'
import { cutoverError } from '../contracts/errors.ts'
import type { Result } from '../result.ts'
import { err } from '../result.ts'
import type { CheckpointDirectory } from '../directory/CheckpointDirectory.ts'
import { directoryWriteCode } from '../directory/CheckpointDirectory.ts'
import type { ControlFence } from './ControlFence.ts'
import { FENCE_OPS, forRequest } from './ControlFence.ts'
import { noSteps, runSteps } from '../directory/verifySteps.ts'

/**
 * A participant's fenced `commit` (docs/protocol.md §3.1):
 * `prepared → committing → committed_paused`, replayed when repeated. The directory layer throws
 * `DirectoryWriteError` when the injected crash fires; here that becomes the participant's
 * checkpoint error, so the fence returns to `prepared` and the controller can retry the commit with
 * the same id over the same directory (a full disk keeps its own code, `storage_full`, on every
 * attempt).
 *  The fence's admission comes first (docs/real-stack.md): a finished id is `stale_checkpoint`, and
 * a commit of the same id into another directory is `checkpoint_conflict`, before D is read.
 *  Commit success stands only for bytes that are durable: with a staged directory the writes are
 * performed after the call returned, and one of them may fail then. So a repeated commit replays
 * the recorded success only while `durable()` (the participant's namespace in D loads and
 * verifies); otherwise the record is void and the commit runs again, rewriting every file.
 */
export function fencedCommit<T>(
  fence: ControlFence,
  checkpointId: string,
  dir: CheckpointDirectory,
  code: ErrorCode,
  durable: () => boolean,
  body: () => Result<T, CutoverError>,
): Result<T, CutoverError> {
  return runSteps(fencedCommitSteps(fence, checkpointId, dir, code, durable, () => noSteps(body())))
}

/**
 * `fencedCommit` over a stepped body (a namespace written one batch of files per step): the fence
 * holds the commit in flight (`committing`) across the steps and settles it when the body ends.
 */
export function* fencedCommitSteps<T>(
  fence: ControlFence,
  checkpointId: string,
  dir: CheckpointDirectory,
  code: ErrorCode,
  durable: () => boolean,
  body: () => Generator<void, Result<T, CutoverError>, void>,
): Generator<void, Result<T, CutoverError>, void> {
  const commit = forRequest(FENCE_OPS.commit, dir.location)
  const admitted = fence.admits(checkpointId, commit.operation, commit.request)
  if (!admitted.ok) return admitted
  if (fence.hasRecorded(checkpointId, commit.operation) && !durable())
    fence.voidCommit(checkpointId)
  const started = fence.begin<T>(checkpointId, commit)
  if (!started.ok) return started
  const b = started.value
  if (b.kind === 'replayed') return b.result
  if (b.kind === 'coalesced')
    return err(
      cutoverError('invalid_phase', `operation ${FENCE_OPS.commit.operation} is already in flight`),
    )
  let result: Result<T, CutoverError>
  try {
    result = yield* body()
  } catch (e) {
    // By name, not instanceof: the adapters may come from another copy of the module graph.
    if (!(e instanceof Error && e.name === 'DirectoryWriteError')) throw e
    result = err(
      cutoverError(directoryWriteCode(e) ?? code, `directory write failed: ${e.message}`),
    )
  }
  return fence.finish(b.ticket, result)
}

import type { CutoverError, ErrorCode } from '../contracts/errors.ts'
import { cutoverError } from '../contracts/errors.ts'
import type { Result } from '../result.ts'
import { err } from '../result.ts'
import type { ControlFence } from './ControlFence.ts'
import { FENCE_OPS } from './ControlFence.ts'

/**
 * A participant's fenced `commit` (PROTOCOL.md §3.1): `prepared → committing → committed_paused`,
 * replayed when repeated. The directory layer throws `DirectoryWriteError` when the injected crash
 * fires; here that becomes the participant's checkpoint error, so the fence returns to `prepared`
 * and the controller can retry the commit with the same id over the same directory.
 *
 * Commit success stands only for bytes that are durable: with a staged directory the writes are
 * performed after the call returned, and one of them may fail then. So a repeated commit replays the
 * recorded success only while `durable()` (the participant's namespace in D loads and verifies);
 * otherwise the record is void and the commit runs again, rewriting every file.
 */
export function fencedCommit<T>(
  fence: ControlFence,
  checkpointId: string,
  code: ErrorCode,
  durable: () => boolean,
  body: () => Result<T, CutoverError>,
): Result<T, CutoverError> {
  if (fence.hasRecorded(checkpointId, FENCE_OPS.commit.operation) && !durable()) fence.voidCommit(checkpointId)
  return fence.run(checkpointId, FENCE_OPS.commit, () => {
    try {
      return body()
    } catch (e) {
      // By name, not instanceof: the adapters may come from another copy of the module graph.
      if (e instanceof Error && e.name === 'DirectoryWriteError') return err(cutoverError(code, `directory write failed: ${e.message}`))
      throw e
    }
  })
}

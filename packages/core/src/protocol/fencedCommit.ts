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
 */
export function fencedCommit<T>(fence: ControlFence, checkpointId: string, code: ErrorCode, body: () => Result<T, CutoverError>): Result<T, CutoverError> {
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

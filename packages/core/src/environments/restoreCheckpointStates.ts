import type { CutoverError } from '../contracts/errors.ts'
import { cutoverError } from '../contracts/errors.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import type { CheckpointCodec } from './EnvironmentServer.ts'
import type { ResourceSnapshot } from '../records/ResourceSnapshot.ts'

/** One restored session, still keyed by the snapshot identity it came from. */
export interface RestoredSession<TSession> {
  readonly rollout_id: string
  readonly attempt_index: number
  readonly state_revision: number
  readonly session: TSession
}

/**
 * Validate-then-activate (docs/protocol.md §5.4, §7.1 `restore_checkpoint_states`): decodes every
 * snapshot before returning any session, so a corrupt or incomplete set activates nothing. The
 * error names the first bad snapshot as `<rollout_id>.a<attempt>`.
 */
export function restoreCheckpointStates<TSession>(
  codec: CheckpointCodec<TSession>,
  snapshots: readonly ResourceSnapshot[],
): Result<readonly RestoredSession<TSession>[], CutoverError> {
  if (!codec.enabled)
    return err(
      cutoverError(
        'unsafe_resources_restore',
        'this environment has not opted in to checkpoint state',
      ),
    )
  const seen = new Set<string>()
  const restored: RestoredSession<TSession>[] = []
  for (const snapshot of snapshots) {
    const key = `${snapshot.rollout_id}.a${snapshot.attempt_index}`
    if (seen.has(key))
      return err(cutoverError('unsafe_resources_restore', `duplicate snapshot ${key}`))
    seen.add(key)
    const decoded = codec.restoreState(snapshot.state)
    if (!decoded.ok)
      return err(
        cutoverError('unsafe_resources_restore', `snapshot ${key}: ${decoded.error.message}`),
      )
    restored.push({
      rollout_id: snapshot.rollout_id,
      attempt_index: snapshot.attempt_index,
      state_revision: snapshot.state_revision,
      session: decoded.value,
    })
  }
  return ok(restored)
}

import type { CutoverError } from '@cutover/core/contracts'
import { cutoverError } from '@cutover/core/contracts'
import type { ExecutionIdentity, Result } from '@cutover/core'
import { captureKey, err, ok } from '@cutover/core'

/**
 * Rollout ids and capture keys (docs/protocol.md §2.1); also a filename component, so no leading
 * dot.
 */
export const ROLLOUT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

export const ROLLOUT_ID_HEADER = 'x-nemo-gym-rollout-id'
export const ATTEMPT_INDEX_HEADER = 'x-nemo-gym-attempt-index'
/** The older Gym spelling of the same two headers (docs/real-stack.md), accepted as well. */
export const LEGACY_ROLLOUT_ID_HEADER = 'x-ng-rollout-id'
export const LEGACY_ATTEMPT_INDEX_HEADER = 'x-ng-attempt-index'

/** Reads a header that may have been sent more than once (fetch joins repeats with `, `). */
function single(value: string | undefined, name: string): Result<string | undefined, CutoverError> {
  if (value === undefined) return ok(undefined)
  const parts = value.split(',').map((p) => p.trim())
  const first = parts[0] ?? ''
  if (parts.some((p) => p !== first))
    return err(cutoverError('execution_identity_mismatch', `conflicting values for ${name}`))
  return ok(first)
}

/**
 * One identity header in either spelling: the values of both, when sent, must agree.
 */
function either(
  header: (name: string) => string | undefined,
  name: string,
  legacy: string,
): Result<string | undefined, CutoverError> {
  const current = single(header(name), name)
  if (!current.ok) return current
  const older = single(header(legacy), legacy)
  if (!older.ok) return older
  if (current.value !== undefined && older.value !== undefined && current.value !== older.value)
    return err(
      cutoverError(
        'execution_identity_mismatch',
        `${name} ${JSON.stringify(current.value)} and ${legacy} ${JSON.stringify(older.value)} disagree`,
      ),
    )
  return ok(current.value ?? older.value)
}

/**
 * The execution identity a request carries (`RolloutContextMiddleware` rules,
 * docs/protocol.md §2.1), in the `x-nemo-gym-*` or the older `x-ng-*` spelling: none, or both
 * headers with a valid id and a non-negative integer attempt; when the path has a
 * `/ng-rollout/<capture_key>/` prefix it must equal the capture key the headers derive. Anything
 * else is 409 `execution_identity_mismatch`.
 */
export function readExecutionIdentity(
  header: (name: string) => string | undefined,
  pathCaptureKey: string | undefined,
): Result<ExecutionIdentity | undefined, CutoverError> {
  const rollout = either(header, ROLLOUT_ID_HEADER, LEGACY_ROLLOUT_ID_HEADER)
  if (!rollout.ok) return rollout
  const attempt = either(header, ATTEMPT_INDEX_HEADER, LEGACY_ATTEMPT_INDEX_HEADER)
  if (!attempt.ok) return attempt
  if (rollout.value === undefined && attempt.value === undefined) return ok(undefined)
  if (rollout.value === undefined || attempt.value === undefined) {
    return err(
      cutoverError(
        'execution_identity_mismatch',
        `${ROLLOUT_ID_HEADER} and ${ATTEMPT_INDEX_HEADER} must be sent together`,
      ),
    )
  }
  if (!ROLLOUT_ID_PATTERN.test(rollout.value))
    return err(
      cutoverError(
        'execution_identity_mismatch',
        `malformed rollout id ${JSON.stringify(rollout.value)}`,
      ),
    )
  if (!/^(0|[1-9][0-9]{0,8})$/.test(attempt.value)) {
    return err(
      cutoverError(
        'execution_identity_mismatch',
        `attempt index must be a non-negative integer, got ${JSON.stringify(attempt.value)}`,
      ),
    )
  }
  const identity: ExecutionIdentity = {
    rollout_id: rollout.value,
    attempt_index: Number(attempt.value),
  }
  if (pathCaptureKey !== undefined && pathCaptureKey !== captureKey(identity)) {
    return err(
      cutoverError(
        'execution_identity_mismatch',
        `path capture key ${pathCaptureKey} does not match ${captureKey(identity)} from the identity headers`,
      ),
    )
  }
  return ok(identity)
}

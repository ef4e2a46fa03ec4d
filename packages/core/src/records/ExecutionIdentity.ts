import { z } from 'zod'
import { ID_PATTERN } from './idPattern.ts'
import type { Same } from './sameType.ts'

/**
 * `(rollout_id, attempt_index)`: one physical dispatch of a logical rollout
 * (docs/protocol.md §2.1).
 */
export interface ExecutionIdentity {
  readonly rollout_id: string
  readonly attempt_index: number
}

/** `<rollout_id>.a<attempt>`: the identity as a file stem and URL segment. */
export const executionKey = (id: ExecutionIdentity): string =>
  `${id.rollout_id}.a${id.attempt_index}`

/** `<rollout_id>.a<attempt>` → identity (the inverse of `executionKey`). */
export function parseKey(key: string): ExecutionIdentity {
  const at = key.lastIndexOf('.a')
  return { rollout_id: key.slice(0, at), attempt_index: Number(key.slice(at + 2)) }
}

/**
 * Capture key: the rollout id for attempt 0, else `<rollout_id>-a<attempt>`
 * (docs/protocol.md §2.1).
 */
export const captureKey = (id: ExecutionIdentity): string =>
  id.attempt_index === 0 ? id.rollout_id : `${id.rollout_id}-a${id.attempt_index}`

/** A rollout id on disk (the identity pattern). */
export const rolloutIdSchema = z.string().regex(ID_PATTERN)
/** An attempt index or a state revision: a non-negative integer. */
export const countSchema = z.number().int().nonnegative()

export const executionIdentitySchema = z.strictObject({
  rollout_id: rolloutIdSchema,
  attempt_index: countSchema,
})

const check: Same<z.infer<typeof executionIdentitySchema>, ExecutionIdentity> = true
void check

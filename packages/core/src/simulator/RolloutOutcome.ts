import type { JsonValue } from '../json.ts'
import { sameJson } from '../sameJson.ts'

/** The outcome of one rollout, compared for equivalence. */
export interface RolloutOutcome {
  readonly rollout_id: string
  readonly attempt_index: number
  readonly reward: number
  readonly outputs: JsonValue
  readonly env_outputs: JsonValue
  /** The environment state after the rollout's last mutation. */
  readonly finalState: () => JsonValue
}

/**
 * Equivalence of two outcomes: their reward, outputs, environment outputs and final environment
 * state have the same canonical JSON (what comparing the canonical JSON of the four together
 * decides), compared by walking the values rather than encoding and hashing them.
 */
export const sameOutcome = (a: RolloutOutcome, b: RolloutOutcome): boolean =>
  sameJson(a.reward, b.reward) &&
  sameJson(a.outputs, b.outputs) &&
  sameJson(a.env_outputs, b.env_outputs) &&
  sameJson(a.finalState(), b.finalState())

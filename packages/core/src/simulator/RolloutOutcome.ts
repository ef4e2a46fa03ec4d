import type { JsonValue } from '../json.ts'
import { canonicalJson } from '../json.ts'

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

/** Stable JSON of an outcome (for equivalence). */
export const outcomeKey = (o: RolloutOutcome): string => canonicalJson({ reward: o.reward, outputs: o.outputs, env_outputs: o.env_outputs, final_state: o.finalState() })

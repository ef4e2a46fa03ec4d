import { z } from 'zod'
import type { DriverState, EnvName, JsonValue, RolloutPlan } from '@cutover/core'
import { ENV_NAMES, decide } from '@cutover/core'
import { workplaceExamples } from '../participants/workplaceExamples.ts'

/**
 * What the agent tells the scripted policy about its rollout, in the Responses-API `metadata`
 * (string values, as the API requires): `cutover_policy` holds this object as JSON.
 */
export const policyInputSchema = z.strictObject({
  environment: z.enum(ENV_NAMES as unknown as [EnvName, ...EnvName[]]),
  task: z.number().int().nonnegative().max(1_000_000),
  turn: z.number().int().nonnegative().max(1_000_000),
  observation: z.string().max(65_536).nullable(),
  done: z.boolean(),
  /** Test hook: the generation takes this long (a slow generation, a straggler). */
  delay_ms: z.number().int().nonnegative().max(600_000).optional(),
})
export type PolicyInput = z.infer<typeof policyInputSchema>

/**
 * The simulator's deterministic scripted policy (`decide`, Workload.ts) answering one model call:
 * the Responses-API output item and its text, or null when the policy makes no more calls.
 */
export function scriptedPolicy(
  input: PolicyInput,
): { readonly item: JsonValue; readonly text: string } | null {
  const plan: RolloutPlan = {
    index: 0,
    rollout_id: 'r',
    env: input.environment,
    task: input.task,
    seed: 0n,
  }
  const state: DriverState = {
    turn: input.turn,
    observation: input.observation,
    outputs: [],
    env_outputs: [],
    reward: 0,
    done: input.done,
  }
  const decision = decide(plan, state, input.environment === 'workplace' ? workplaceExamples() : [])
  return decision === null ? null : { item: decision.item, text: decision.text }
}

import { ENV_NAMES } from '../contracts/environments.ts'
import { rolloutIds } from '../contracts/rolloutIds.ts'
import type { EnvName } from '../contracts/environments.ts'
import type { WorkplaceExample } from '../environments/workplace/WorkplaceSession.ts'
import type { JsonValue } from '../json.ts'

/** The environments in dealing order (docs/protocol.md §12.1). */

/** One rollout of a run: its id, environment, task row and seed. */
export interface RolloutPlan {
  readonly index: number
  readonly rollout_id: string
  readonly env: EnvName
  /** Row of the environment's example data this rollout plays (index / 3, mod 5). */
  readonly task: number
  /** Derived from the run seed; Blackjack deals from it, latencies draw from it. */
  readonly seed: bigint
}

export { rolloutIds } from '../contracts/rolloutIds.ts'

/**
 * The run's rollouts dealt round-robin blackjack, counter, workplace. Each rollout's seed is
 * derived from the run seed and its index (any size: BigInt arithmetic), so the same rollout in a
 * run with and without a checkpoint plays the same game.
 */
export function planRollouts(runSeed: bigint, count: number): readonly RolloutPlan[] {
  const ids = rolloutIds(count)
  return ids.map((rollout_id, index) => ({
    index,
    rollout_id,
    env: ENV_NAMES[index % ENV_NAMES.length] as EnvName,
    task: Math.floor(index / 3) % 5,
    seed: runSeed * 1_000_003n + BigInt(index),
  }))
}

/**
 * What the agent carries across turns. Stored in every boundary record's `agent_state`, so a
 * restored execution continues from exactly here.
 */
export interface DriverState {
  readonly turn: number
  readonly observation: string | null
  /** Every model output item so far (the Responses-API `response.output`). */
  readonly outputs: readonly JsonValue[]
  /** Every environment answer so far (tool outputs, observations). */
  readonly env_outputs: readonly JsonValue[]
  readonly reward: number
  readonly done: boolean
}

export const INITIAL_DRIVER_STATE: DriverState = {
  turn: 0,
  observation: null,
  outputs: [],
  env_outputs: [],
  reward: 0,
  done: false,
}

/** One model decision: an assistant message or a function call, as Responses-API output items. */
export interface Decision {
  readonly item: JsonValue
  readonly text: string
  readonly route: string
  readonly body: JsonValue
}

/**
 * The counter example rows (docs/environments.md §3): add a, add b, read; expected = initial + a +
 * b.
 */
export function counterTask(task: number): {
  readonly a: number
  readonly b: number
  readonly initial: number
  readonly expected: number
} {
  const a = 3 * task + 1
  const b = 3 * task + 2
  const initial = 3 * task + 3
  return { a, b, initial, expected: initial + a + b }
}

const BLACKJACK_PARAMS: JsonValue = {
  input: [
    {
      role: 'system',
      content:
        'You are playing Blackjack. After seeing your hand, respond with <action>hit</action> or <action>stand</action>. Think briefly, then give your action tag.',
    },
    { role: 'user', content: 'Deal me in.' },
  ],
}
const BLACKJACK_MAX_STEPS = 5

const counterParams = (task: number): JsonValue => {
  const t = counterTask(task)
  return { input: [{ role: 'user', content: `add ${t.a} then add ${t.b} then get the count` }] }
}

/** The start request of a rollout (Gymnasium `/reset` or `/seed_session`). */
export function startRequest(plan: RolloutPlan): {
  readonly path: string
  readonly body: JsonValue
} {
  switch (plan.env) {
    case 'blackjack':
      return {
        path: '/reset',
        body: { responses_create_params: BLACKJACK_PARAMS, seed: plan.seed.toString() },
      }
    case 'counter':
      return { path: '/seed_session', body: { initial_count: counterTask(plan.task).initial } }
    case 'workplace':
      return { path: '/seed_session', body: {} }
  }
}

const functionCall = (turn: number, name: string, args: string): JsonValue => ({
  type: 'function_call',
  call_id: `call_${turn}`,
  name,
  arguments: args,
  status: 'completed',
})

/**
 * The scripted policy: Blackjack hits below 17 else stands; the counter adds its two numbers and
 * reads; Workplace issues the ground-truth calls of its example task. `null`: no more model calls.
 */
export function decide(
  plan: RolloutPlan,
  state: DriverState,
  examples: readonly WorkplaceExample[],
): Decision | null {
  if (state.done) return null
  switch (plan.env) {
    case 'blackjack': {
      if (state.turn >= BLACKJACK_MAX_STEPS) return null
      const m = /= (\d+)/.exec(state.observation ?? '')
      const value = m === null ? 0 : Number(m[1])
      const text = `<action>${value < 17 ? 'hit' : 'stand'}</action>`
      const item: JsonValue = {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text }],
      }
      return {
        item,
        text,
        route: '/step',
        body: { responses_create_params: BLACKJACK_PARAMS, response: { output: [item] } },
      }
    }
    case 'counter': {
      const t = counterTask(plan.task)
      if (state.turn === 0 || state.turn === 1) {
        const args = JSON.stringify({ count: state.turn === 0 ? t.a : t.b })
        return {
          item: functionCall(state.turn, 'increment_counter', args),
          text: `increment_counter${args}`,
          route: '/increment_counter',
          body: JSON.parse(args) as JsonValue,
        }
      }
      if (state.turn === 2)
        return {
          item: functionCall(2, 'get_counter_value', '{}'),
          text: 'get_counter_value{}',
          route: '/get_counter_value',
          body: {},
        }
      return null
    }
    case 'workplace': {
      const example = examples[plan.task % Math.max(1, examples.length)]
      const calls = Array.isArray(example?.ground_truth) ? example.ground_truth : []
      const call = calls[state.turn]
      if (call === undefined || call === null || typeof call !== 'object' || Array.isArray(call))
        return null
      const name = String(call['name'])
      const args = String(call['arguments'])
      return {
        item: functionCall(state.turn, name, args),
        text: `${name}${args}`,
        route: `/${name}`,
        body: JSON.parse(args) as JsonValue,
      }
    }
  }
}

/** Folds one environment answer into the driver state. */
export function applyEnvResponse(
  plan: RolloutPlan,
  state: DriverState,
  decision: Decision,
  status: number,
  body: JsonValue,
  closed: boolean,
): DriverState {
  const outputs = [...state.outputs, decision.item]
  const envOutputs = [...state.env_outputs, body]
  if (plan.env === 'blackjack') {
    const b = body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {}
    const reward = state.reward + (typeof b['reward'] === 'number' ? b['reward'] : 0)
    const terminal = closed || b['terminated'] === true || b['truncated'] === true || status >= 400
    const observation = typeof b['observation'] === 'string' ? b['observation'] : state.observation
    return {
      turn: state.turn + 1,
      observation,
      outputs,
      env_outputs: envOutputs,
      reward,
      done: terminal || state.turn + 1 >= BLACKJACK_MAX_STEPS,
    }
  }
  return { ...state, turn: state.turn + 1, outputs, env_outputs: envOutputs }
}

/** The start answer folded in (Blackjack's reset observation). */
export function applyStart(plan: RolloutPlan, state: DriverState, body: JsonValue): DriverState {
  if (plan.env !== 'blackjack') return state
  const b = body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {}
  return { ...state, observation: typeof b['observation'] === 'string' ? b['observation'] : null }
}

/** The terminal `/verify` request, when the environment has one. */
export function verifyRequest(
  plan: RolloutPlan,
  state: DriverState,
  examples: readonly WorkplaceExample[],
): { readonly path: string; readonly body: JsonValue } | null {
  switch (plan.env) {
    case 'blackjack':
      return null
    case 'counter':
      return {
        path: '/verify',
        body: {
          responses_create_params: counterParams(plan.task),
          response: { output: [...state.outputs] },
          expected_count: counterTask(plan.task).expected,
        },
      }
    case 'workplace': {
      const ex = examples[plan.task % Math.max(1, examples.length)]
      return {
        path: '/verify',
        body: {
          responses_create_params: ex?.responses_create_params ?? {},
          response: { output: [...state.outputs] },
          ground_truth: ex?.ground_truth ?? [],
          id: ex?.id ?? plan.task,
          category: ex?.category ?? '',
          environment_name: ex?.environment_name ?? 'workplace_assistant',
        },
      }
    }
  }
}

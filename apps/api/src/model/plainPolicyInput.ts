import type { EnvName, WorkplaceExample } from '@cutover/core'
import { counterTask } from '@cutover/core'
import type { PolicyInput } from './scriptedPolicy.ts'

/** The counter environment's tools (docs/environments.md §3). */
const COUNTER_TOOLS = new Set(['increment_counter', 'get_counter_value'])

type Item = { readonly [key: string]: unknown }

const isItem = (value: unknown): value is Item =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** The text of a message's `content`: a string, or its text parts joined. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((part) => (isItem(part) && typeof part['text'] === 'string' ? part['text'] : ''))
    .join('')
}

/** A model output the conversation carries back: a function call or an assistant message. */
const isModelOutput = (item: Item): boolean =>
  item['type'] === 'function_call' || item['role'] === 'assistant'

/**
 * What the scripted policy needs, read from a plain OpenAI Responses body as a real Gym agent sends
 * it (no `metadata.cutover_policy`; docs/real-stack.md). The environment comes from the tools it
 * offers (counter or Workplace tool names; none: Blackjack's text actions), the turn from the
 * model outputs already in `input`, the observation from the last input that is not one, and the
 * task from the first user message (Workplace: the example with that prompt; counter: the task
 * whose first increment it names). Deterministic, like the policy.
 */
export function plainPolicyInput(
  body: { readonly input?: unknown; readonly tools?: unknown },
  examples: readonly WorkplaceExample[],
): PolicyInput {
  const items: Item[] =
    typeof body.input === 'string'
      ? [{ role: 'user', content: body.input }]
      : Array.isArray(body.input)
        ? body.input.filter(isItem)
        : []
  const tools = new Set(
    (Array.isArray(body.tools) ? body.tools : [])
      .map((t) => (isItem(t) ? t['name'] : undefined))
      .filter((n): n is string => typeof n === 'string'),
  )
  const prompt = textOf(items.find((i) => i['role'] === 'user')?.['content'])
  const workplace = examples.findIndex((e) => {
    const params = e.responses_create_params
    const input: unknown[] = isItem(params) && Array.isArray(params['input']) ? params['input'] : []
    const user = input.filter(isItem).find((i) => i['role'] === 'user')
    return textOf(user?.['content']) === prompt
  })
  const environment: EnvName = [...tools].some((t) => COUNTER_TOOLS.has(t))
    ? 'counter'
    : tools.size > 0 || workplace >= 0
      ? 'workplace'
      : 'blackjack'
  const last = [...items].reverse().find((i) => !isModelOutput(i))
  const observation =
    last === undefined
      ? null
      : last['type'] === 'function_call_output'
        ? typeof last['output'] === 'string'
          ? last['output']
          : JSON.stringify(last['output'] ?? null)
        : textOf(last['content'])
  const firstAdd = Number(/\badd (\d+)/.exec(prompt)?.[1] ?? NaN)
  const counterIndex = Number.isSafeInteger(firstAdd)
    ? Array.from({ length: 5 }, (_, k) => k).find((k) => counterTask(k).a === firstAdd)
    : undefined
  const task =
    environment === 'workplace'
      ? Math.max(0, workplace)
      : environment === 'counter'
        ? (counterIndex ?? 0)
        : 0
  return {
    environment,
    task,
    turn: items.filter(isModelOutput).length,
    observation,
    done: false,
  }
}

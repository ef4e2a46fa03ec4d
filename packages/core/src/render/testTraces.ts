import { ENV_NAMES } from '../contracts/environments.ts'
import type { JsonValue } from '../json.ts'
import type { TraceMessage, TracePhase } from '../contracts/trace.ts'

// Builders shared by the renderer's tests. Kept out of `*.test.ts` so two test files can use them;
// pure, so it may live in the domain folder.

/** An event with defaults for everything a test does not care about. */
export function traceEvent(
  step: number,
  fields: Partial<Omit<TraceMessage, 'step'>> = {},
): TraceMessage {
  return {
    step,
    time_ms: step * 10,
    phase: 'run',
    from: 'controller',
    to: 'agent',
    type: 'agent.status',
    payload: {},
    outcome: 'ok',
    ...fields,
  }
}

const CYCLE: readonly TracePhase[] = [
  'run',
  'prepare',
  'retire',
  'commit',
  'restore',
  'resume',
  'continue',
]

/**
 * A synthetic trace shaped like a 1,000-rollout run: `total` events in long phase runs, every
 * message naming a rollout and a long path, one in 97 refused. Deterministic.
 */
export function largeTrace(total: number, rollouts = 1_000): TraceMessage[] {
  const events: TraceMessage[] = []
  const runLength = Math.ceil(total / CYCLE.length)
  for (let step = 1; step <= total; step++) {
    const r = (step * 7) % rollouts
    const id = `r${String(r).padStart(3, '0')}`
    const env = ENV_NAMES[r % ENV_NAMES.length] as string
    const phase = CYCLE[
      Math.min(CYCLE.length - 1, Math.floor((step - 1) / runLength))
    ] as TracePhase
    const payload: { [key: string]: JsonValue } = {
      rollout_id: id,
      attempt_index: 1 + (step % 2),
      path: `resources/${env}/sessions/${id}.a1/some/deeply/nested/snapshot-file-${step}.json`,
    }
    events.push({
      step,
      time_ms: step,
      phase,
      from: step % 2 === 0 ? `rollout_${id}` : 'controller',
      to: step % 5 === 0 ? `model_worker_${step % 4}` : `resources_${env}`,
      type: step % 2 === 0 ? 'resources.step' : 'resources.prepare',
      payload,
      outcome: step % 97 === 0 ? 'stale_attempt' : 'ok',
    })
  }
  return events
}

/** Strings a payload might carry that would break a naive diagram. */
export const HOSTILE_STRINGS: readonly string[] = [
  'a;b',
  '#59; literal entity',
  'x: wrap: y',
  'wrap:leading',
  '<script>alert(1)</script>',
  '<br/>two<br>lines',
  'line\nbreak\r\nand\ttab',
  '%%{init: {"theme":"dark"}}%%',
  '%% comment',
  'end',
  'participant X as Y',
  'A->>B: injected',
  'Note over A: injected',
  '--)',
  'ﬂ°°59¶ß',
  '&lt;&amp;',
  '\u2028sep\u2029',
  '😀'.repeat(60),
  'x'.repeat(500),
  '',
  ' ',
  '}',
  '{',
  '"quoted"',
  "it's",
  '\\',
  'rollout_r1',
  'toString',
  '__proto__',
  'constructor',
  'hasOwnProperty',
]

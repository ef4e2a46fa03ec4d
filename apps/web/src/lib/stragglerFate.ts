import type { JsonValue, TraceEvent } from '@cutover/core/contracts'

/** What a checkpoint did to a run's straggler, read from its trace. */
export type StragglerFate =
  | { readonly kind: 'pending' }
  /** `whole-request`: sacrificed at the deadline and redispatched fresh. */
  | {
      readonly kind: 'retired'
      readonly rollout: string
      readonly step: number
      readonly redispatched: number | null
    }
  /** `generation-safe`: cut at token `tokens`, its prefix durable, continued under N+1. */
  | {
      readonly kind: 'cut'
      readonly rollout: string
      readonly call: string | null
      readonly step: number
      readonly tokens: number | null
      /** The step of the acknowledgement with the durable prefix. */
      readonly acked: number | null
      /** The step at which the call continues from the prefix after restore. */
      readonly continued: number | null
      readonly continuedAttempt: number | null
    }

const text = (v: JsonValue | undefined): string | null => (typeof v === 'string' ? v : null)
const count = (v: JsonValue | undefined): number | null =>
  typeof v === 'number' && Number.isSafeInteger(v) ? v : null

/** The token count a generation event carries (`prefix_token_count`, or `token_count`). */
export const tokenCount = (event: TraceEvent): number | null =>
  count(event.payload['prefix_token_count']) ?? count(event.payload['token_count'])

/**
 * The first straggler's fate: in a `whole-request` run the `rollout.retired` event (and the fresh
 * dispatch of its next attempt); in a `generation-safe` run the acknowledgement of its durable
 * prefix (`generation.cut_ack` with `durable_prefix`), the cut that asked for it, and the
 * `generation.continue` of the same call after restore. `pending` until the trace shows either.
 * Pure.
 */
export function stragglerFate(events: readonly TraceEvent[]): StragglerFate {
  const ack = events.find(
    (e) =>
      e.type === 'generation.cut_ack' &&
      e.payload['disposition'] === 'durable_prefix' &&
      e.payload['cut_kind'] !== 'terminal_completion',
  )
  if (ack) {
    const rollout = text(ack.payload['rollout_id']) ?? '?'
    const call = text(ack.payload['model_call_id'])
    const sameCall = (e: TraceEvent) =>
      call !== null ? e.payload['model_call_id'] === call : e.payload['rollout_id'] === rollout
    const cut = events.find(
      (e) =>
        e.type === 'generation.cut' &&
        e.step <= ack.step &&
        (e.payload['model_call_id'] === undefined || sameCall(e)),
    )
    // the continuing call of N+1 names the cut call it continues
    const cont = events.find(
      (e) =>
        e.type === 'generation.continue' &&
        e.step > ack.step &&
        (call !== null
          ? e.payload['cut_model_call_id'] === call
          : e.payload['rollout_id'] === rollout),
    )
    return {
      kind: 'cut',
      rollout,
      call,
      step: cut?.step ?? ack.step,
      tokens: tokenCount(ack),
      acked: ack.step,
      continued: cont?.step ?? null,
      continuedAttempt: cont
        ? count(cont.payload['attempt_index'] ?? cont.payload['attempt'])
        : null,
    }
  }
  const retired = events.find((e) => e.type === 'rollout.retired')
  if (retired) {
    const rollout = text(retired.payload['rollout_id']) ?? '?'
    const again = events.find(
      (e) =>
        e.type === 'run.dispatch' && e.step > retired.step && e.payload['rollout_id'] === rollout,
    )
    return { kind: 'retired', rollout, step: retired.step, redispatched: again?.step ?? null }
  }
  return { kind: 'pending' }
}

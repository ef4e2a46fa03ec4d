import type { GenerationCutRecord, GenerationCutView } from '../contracts/generationCuts.ts'
import type { TraceEvent, TraceEventOf } from '../contracts/trace.ts'
import type { Digest } from '../ports.ts'
import { tokenDigest } from '../protocol/generationTokens.ts'
import type { TokenStore } from '../protocol/TokenStore.ts'

/** The trace events a cut view is built from, as the recorder keeps them (in step order). */
export type CutEvent =
  | TraceEventOf<'generation.cut'>
  | TraceEventOf<'generation.cut_ack'>
  | TraceEventOf<'generation.continue'>
  | TraceEventOf<'generation.coordinates'>

/**
 * True for the events `CutEvent` holds (a continued call's `generation.coordinates` is kept by the
 * caller).
 */
export const isCutEvent = (
  e: TraceEvent,
): e is TraceEventOf<'generation.cut_ack'> | TraceEventOf<'generation.continue'> =>
  e.type === 'generation.cut_ack' || e.type === 'generation.continue'

/**
 * The ledger-shaped `generation_cut` record a cut acknowledgement stands for ("cut at token k").
 */
export function cutRecordOf(ack: TraceEventOf<'generation.cut_ack'>): GenerationCutRecord {
  const p = ack.payload
  return {
    model_call_id: p.model_call_id,
    disposition: p.disposition,
    ...(p.cut_kind === null ? {} : { cut_kind: p.cut_kind }),
    ...(p.staging_keys.length === 0 ? {} : { staging_keys: [...p.staging_keys] }),
    ...(p.prefix_token_count === null ? {} : { prefix_token_count: p.prefix_token_count }),
    ...(p.prefix_digest === null ? {} : { prefix_digest: p.prefix_digest }),
  }
}

/**
 * The generation cuts of one rollout's calls as known after `step` (the Sessions detail): each cut
 * call's prefix (count, digest, segments) and, once continued under N+1, the continuation's count
 * and, once that call finished, its digest (the ids after k of the continued call's output).
 */
export function generationCutViews(
  events: readonly CutEvent[],
  rolloutId: string,
  step: number,
  store: TokenStore,
  digest: Digest,
): GenerationCutView[] {
  const views = new Map<string, GenerationCutView>()
  const continuing = new Map<string, string>()
  const cutAt = new Map<string, number>()
  for (const e of events) {
    if (e.step > step) break
    if (e.payload.rollout_id !== rolloutId) continue
    if (e.type === 'generation.cut') cutAt.set(e.payload.model_call_id, e.step)
    else if (e.type === 'generation.cut_ack') {
      const p = e.payload
      views.set(p.model_call_id, {
        model_call_id: p.model_call_id,
        rollout_id: p.rollout_id,
        attempt: p.attempt_index,
        disposition: p.disposition,
        cut_kind: p.cut_kind,
        staging_keys: [...p.staging_keys],
        prefix_token_count: p.prefix_token_count ?? 0,
        prefix_digest: p.prefix_digest,
        continued_by: null,
        prefix_delivery: null,
        continuation_token_count: null,
        continuation_digest: null,
        total_token_count: null,
        // a call that was never cut (not started, excluded) has only its acknowledgement
        cut_step: cutAt.get(p.model_call_id) ?? e.step,
        continue_step: null,
      })
    } else if (e.type === 'generation.continue') {
      const p = e.payload
      const v = views.get(p.cut_model_call_id)
      if (v === undefined) continue
      continuing.set(p.model_call_id, p.cut_model_call_id)
      views.set(v.model_call_id, {
        ...v,
        continued_by: p.model_call_id,
        prefix_delivery: p.prefix_delivery,
        continuation_token_count: p.continuation_token_count,
        continue_step: e.step,
      })
    } else {
      const cut = continuing.get(e.payload.model_call_id)
      const v = cut === undefined ? undefined : views.get(cut)
      if (v === undefined) continue
      const output = store.tokens(e.payload.staging_key) ?? []
      views.set(v.model_call_id, {
        ...v,
        total_token_count: output.length,
        continuation_digest: tokenDigest(digest, output.slice(v.prefix_token_count)),
      })
    }
  }
  return [...views.values()]
}

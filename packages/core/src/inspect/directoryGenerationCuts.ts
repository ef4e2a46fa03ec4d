import type { GenerationCutRecord, GenerationCutView } from '../contracts/generationCuts.ts'
import type { GenerationCutEntry } from '../directory/manifests.ts'

/**
 * The lineage's "cut at token k" of one ledger `generation_cut` record (the call's disposition and
 * prefix).
 */
export function cutRecordOfEntry(entry: GenerationCutEntry): GenerationCutRecord {
  return {
    model_call_id: entry.model_call_id,
    disposition: entry.disposition,
    ...(entry.cut_kind === undefined ? {} : { cut_kind: entry.cut_kind }),
    ...(entry.staging_keys === undefined ? {} : { staging_keys: [...entry.staging_keys] }),
    ...(entry.prefix_token_count === undefined
      ? {}
      : { prefix_token_count: entry.prefix_token_count }),
    ...(entry.prefix_digest === undefined ? {} : { prefix_digest: entry.prefix_digest }),
  }
}

/**
 * The ledgers' `generation_cut` records of a checkpoint directory as the Sessions detail shows a
 * cut (docs/protocol.md §11.4), by rollout then call: the prefix frozen in attempt N with its
 * count, digest and segments. A directory has no trace and no N+1 yet: steps are 0, nothing is
 * continued.
 */
export function directoryGenerationCuts(
  entries: readonly GenerationCutEntry[],
): GenerationCutView[] {
  return [...entries]
    .sort((a, b) =>
      a.rollout_id === b.rollout_id
        ? a.model_call_id < b.model_call_id
          ? -1
          : 1
        : a.rollout_id < b.rollout_id
          ? -1
          : 1,
    )
    .map((e) => ({
      model_call_id: e.model_call_id,
      rollout_id: e.rollout_id,
      attempt: e.attempt_index,
      disposition: e.disposition,
      cut_kind: e.cut_kind ?? null,
      staging_keys: [...(e.staging_keys ?? [])],
      prefix_token_count: e.prefix_token_count ?? 0,
      prefix_digest: e.prefix_digest ?? null,
      continued_by: null,
      prefix_delivery: null,
      continuation_token_count: null,
      continuation_digest: null,
      total_token_count: null,
      cut_step: 0,
      continue_step: null,
    }))
}

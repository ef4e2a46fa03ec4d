import type { DirectoryLineageView } from '../contracts/directoryRun.ts'
import type { GenerationCutEntry } from '../directory/manifests.ts'
import type { AgentBoundaryRecord } from '../records/AgentBoundaryRecord.ts'
import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import type { LineageRow } from '../records/LineageRow.ts'
import { executionKey } from '../records/ExecutionIdentity.ts'
import { cutRecordOfEntry } from './directoryGenerationCuts.ts'

type Environment = DirectoryLineageView['rollouts'][number]['environment']
type Attempt = DirectoryLineageView['rollouts'][number]['attempts'][number]

/**
 * What the lineage is built from: the ledger rows, tombstones, agent boundaries and live
 * membership.
 */
export interface DirectoryLineageInput {
  readonly rows: readonly LineageRow[]
  readonly tombstones: readonly ExecutionIdentity[]
  readonly boundaries: readonly AgentBoundaryRecord[]
  /** Executions the aggregate lists as terminal. */
  readonly terminal: ReadonlySet<string>
  /** rollout id → environment (from the resources snapshots and agent boundaries). */
  readonly environments: ReadonlyMap<string, Environment>
  /** The ledgers' `generation_cut` records (generation-safe checkpoints). */
  readonly cuts?: readonly GenerationCutEntry[]
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The lineage of a checkpoint directory from its model ledgers: rollout → attempts → model calls.
 * An attempt is `fenced` when a ledger tombstones it, `continued` when its agent boundary names a
 * committed call (a continuation root, which N+1's first call relays from), `completed` when the
 * aggregate lists it terminal, else `running`. A call whose parent belongs to another attempt is
 * the relay. A call with a `generation_cut` record carries it ("cut at token k"); a frozen call
 * that has no lineage row (it never completed in attempt N) is listed after the attempt's rows.
 * `step` is 0: a directory has no trace. Pure.
 */
export function directoryLineage(input: DirectoryLineageInput): DirectoryLineageView {
  const fenced = new Set(input.tombstones.map(executionKey))
  const roots = input.boundaries
    .filter((b) => b.last_committed_model_call_id !== null)
    .map((b) => ({ key: executionKey(b), model_call_id: b.last_committed_model_call_id as string }))
    .sort((a, b) => compareText(a.key, b.key))
  const continued = new Set(roots.map((r) => r.key))
  // Call ids are unique within an attempt, not across a restore (the restored model numbers anew).
  const attemptsOfCall = new Map<string, Set<number>>()
  for (const r of input.rows)
    attemptsOfCall.set(
      r.model_call_id,
      (attemptsOfCall.get(r.model_call_id) ?? new Set()).add(r.attempt_index),
    )
  const byRollout = new Map<string, Map<number, LineageRow[]>>()
  const touch = (id: ExecutionIdentity) => {
    let attempts = byRollout.get(id.rollout_id)
    if (attempts === undefined) byRollout.set(id.rollout_id, (attempts = new Map()))
    if (!attempts.has(id.attempt_index)) attempts.set(id.attempt_index, [])
    return attempts.get(id.attempt_index) as LineageRow[]
  }
  for (const row of input.rows) touch(row).push(row)
  for (const id of [...input.tombstones, ...input.boundaries, ...(input.cuts ?? [])]) touch(id)
  const cutsOf = new Map<string, GenerationCutEntry[]>()
  for (const c of input.cuts ?? [])
    cutsOf.set(executionKey(c), [...(cutsOf.get(executionKey(c)) ?? []), c])
  const rollouts = [...byRollout.entries()]
    .sort(([a], [b]) => compareText(a, b))
    .map(([rollout_id, attempts]) => ({
      rollout_id,
      environment: input.environments.get(rollout_id) ?? 'blackjack',
      attempts: [...attempts.entries()]
        .sort(([a], [b]) => a - b)
        .map(([attempt, rows]): Attempt => {
          const key = executionKey({ rollout_id, attempt_index: attempt })
          const status: Attempt['status'] = fenced.has(key)
            ? 'fenced'
            : continued.has(key)
              ? 'continued'
              : input.terminal.has(key)
                ? 'completed'
                : 'running'
          const cuts = cutsOf.get(key) ?? []
          const cutOf = (callId: string) => cuts.find((c) => c.model_call_id === callId)
          const calls: Attempt['calls'][number][] = rows.map((r, i) => {
            const cut = cutOf(r.model_call_id)
            return {
              model_call_id: r.model_call_id,
              parent_call_id: r.parent_call_id,
              // the parent is no earlier call of this attempt but a call of another one
              relay:
                r.parent_call_id !== null &&
                !rows.slice(0, i).some((earlier) => earlier.model_call_id === r.parent_call_id) &&
                [...(attemptsOfCall.get(r.parent_call_id) ?? [])].some((a) => a !== attempt),
              step: 0,
              ...(cut === undefined ? {} : { generation_cut: cutRecordOfEntry(cut) }),
            }
          })
          for (const cut of cuts)
            if (!rows.some((r) => r.model_call_id === cut.model_call_id))
              calls.push({
                model_call_id: cut.model_call_id,
                parent_call_id: rows.at(-1)?.model_call_id ?? null,
                relay: false,
                step: 0,
                generation_cut: cutRecordOfEntry(cut),
              })
          return { attempt, status, calls }
        }),
    }))
  return { rollouts, tombstones: [...fenced].sort(compareText), roots }
}

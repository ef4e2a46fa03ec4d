import type { RunConfig } from '../contracts/scenarios.ts'
import { SEGMENTS_FOLDER } from '../contracts/faultTargets.ts'
import type { CorruptibleFolder } from '../contracts/faultTargets.ts'
import { presetModelWorkers } from '../scenarios/presets.ts'

/** A `stale_request` fault: a delayed attempt-N request reaching `participant` after restore. */
export interface StaleRequest {
  readonly rolloutId: string
  readonly participant: 'policy_model' | 'agent' | 'resources'
  /** Only when the rollout was continued (the `tombstones-skipped-on-restore` bug's probes). */
  readonly ifContinued?: boolean
}

/**
 * A `corrupt_file` (or `corrupt_segment`: the token-store segments) fault: flip a byte in file
 * `index` (sorted) of `namespace` after publication.
 */
export interface Corruption {
  readonly namespace: CorruptibleFolder
  readonly index: number
}

/**
 * The run's faults (`config.faults`, docs/protocol.md §12.3), read once into the questions the
 * engine asks: how many model workers and which never answer, a rollout's extra latency, whether a
 * rollout's result is held back unacknowledged or claimed twice, the stale requests to replay,
 * the files to corrupt, and whether a directory write is the one that crashes. Rollouts named by
 * index resolve to their ids here. A baseline run (no checkpoint) sees only the worker layout.
 */
export class FaultPlan {
  /** Policy model workers (the preset's minimum, or enough to hold every `missing_worker`). */
  readonly modelWorkers: number
  readonly staleRequests: readonly StaleRequest[]
  readonly corruptions: readonly Corruption[]
  readonly #missing = new Set<number>()
  readonly #straggling = new Map<string, number>()
  readonly #unacked = new Set<string>()
  readonly #duplicateClaims = new Set<string>()
  /** The write numbers `crash_after_write` kills (each fires once: the write count only grows). */
  readonly #crashOnWrites: ReadonlySet<number>
  readonly #constrained = new Set<string>()
  readonly #stageFails = new Set<string>()
  readonly #duplicateCutClaims = new Set<string>()
  #writes = 0

  constructor(config: RunConfig, rolloutIds: readonly string[], checkpoint: boolean) {
    const id = (ref: string | number): string =>
      typeof ref === 'number' ? (rolloutIds[ref] ?? `r${ref}`) : ref
    const stale: StaleRequest[] = []
    const corruptions: Corruption[] = []
    const missing: number[] = []
    const crashes = new Set<number>()
    for (const f of config.faults) {
      switch (f.kind) {
        case 'missing_worker':
          missing.push(f.worker)
          break
        case 'straggler':
          if (checkpoint)
            this.#straggling.set(
              id(f.rollout),
              (this.#straggling.get(id(f.rollout)) ?? 0) + f.extra_ms,
            )
          break
        case 'unacked_result':
          if (checkpoint) this.#unacked.add(id(f.rollout))
          break
        case 'duplicate_claim':
          this.#duplicateClaims.add(id(f.rollout))
          break
        case 'stale_request':
          stale.push({ rolloutId: id(f.rollout), participant: f.participant })
          break
        case 'corrupt_file':
          corruptions.push({ namespace: f.namespace, index: f.index })
          break
        case 'crash_after_write':
          crashes.add(f.k)
          break
        case 'constrained_decoding':
          this.#constrained.add(id(f.rollout))
          break
        case 'cut_stage_failure':
          this.#stageFails.add(id(f.rollout))
          break
        case 'corrupt_segment':
          corruptions.push({ namespace: SEGMENTS_FOLDER, index: f.index })
          break
        case 'duplicate_cut_claim':
          this.#duplicateCutClaims.add(id(f.rollout))
          break
      }
    }
    // The bug shows only when a retired or continued attempt speaks again: probe every continued
    // one.
    if (config.bug === 'tombstones-skipped-on-restore' && checkpoint)
      for (const rolloutId of rolloutIds)
        stale.push({ rolloutId, participant: 'policy_model', ifContinued: true })
    const minWorkers = presetModelWorkers(config.scenario)
    this.modelWorkers =
      minWorkers > 1 || missing.length > 0
        ? Math.max(2, minWorkers, ...missing.map((w) => w + 1))
        : 1
    for (const w of missing) this.#missing.add(w)
    this.staleRequests = stale
    this.corruptions = corruptions
    this.#crashOnWrites = crashes
  }

  /** `constrained_decoding`: the rollout's calls use constrained decoding (excluded from cuts). */
  constrainedDecoding(rolloutId: string): boolean {
    return this.#constrained.has(rolloutId)
  }
  /** `cut_stage_failure`: the token store cannot stage the rollout's cut prefix. */
  cutStageFails(rolloutId: string): boolean {
    return this.#stageFails.has(rolloutId)
  }
  /** `duplicate_cut_claim`: a second worker claims the rollout's restored cut. */
  claimsCutTwice(rolloutId: string): boolean {
    return this.#duplicateCutClaims.has(rolloutId)
  }

  /** True for a worker that dropped and never acknowledges (until it rejoins). */
  isMissingWorker(worker: number): boolean {
    return this.#missing.has(worker)
  }

  /** The missing workers, in order. */
  missingWorkers(): readonly number[] {
    return [...this.#missing].sort()
  }

  /** A missing worker's replacement registered: it is no longer missing. */
  rejoined(worker: number): void {
    this.#missing.delete(worker)
  }

  /** Extra model latency of a rollout's model calls (`straggler`: attempt 0 only). */
  extraLatency(rolloutId: string, attempt: number): number {
    return attempt === 0 ? (this.#straggling.get(rolloutId) ?? 0) : 0
  }

  /** The rollouts whose result must still be unacknowledged when the first checkpoint prepares. */
  get unackedRollouts(): ReadonlySet<string> {
    return this.#unacked
  }

  /** The receipt replay ran (once): no result is held back any more. */
  unackedReplayed(): void {
    this.#unacked.clear()
  }

  /** True when a restored continuation of `rolloutId` is claimed twice (`duplicate_claim`). */
  claimsTwice(rolloutId: string): boolean {
    return this.#duplicateClaims.has(rolloutId)
  }

  /**
   * Counts one directory write of the run (crashed ones too, from 1); true for a write a
   * `crash_after_write` names. Several such faults crash several writes — e.g. each attempt of a
   * retried commit, until the controller gives up and aborts the checkpoint.
   */
  crashesOnWrite(): boolean {
    this.#writes++
    return this.#crashOnWrites.has(this.#writes)
  }

  /** The write number the next crash fires on (for its message), undefined when none is left. */
  get crashWrite(): number | undefined {
    let next: number | undefined
    for (const k of this.#crashOnWrites)
      if (k > this.#writes && (next === undefined || k < next)) next = k
    return next
  }
}

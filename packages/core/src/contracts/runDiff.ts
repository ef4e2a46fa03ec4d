import type { TraceEvent } from './trace.ts'
import type { ParticipantView, RunView, SessionRow } from './views.ts'

/** The first divergent event of two runs, as `cutover diff --json` prints it (CONTRACTS.md §8). */
export interface FirstDivergence {
  readonly step_a: number
  readonly step_b: number
  /** A's event at `step_a`, or null when A has none there (B has events A lacks). */
  readonly a: TraceEvent | null
  readonly b: TraceEvent | null
}

/** The `cutover diff --json` object. */
export interface RunDiffSummary {
  readonly identical: boolean
  readonly first_divergence: FirstDivergence | null
  readonly differences: number
}

/** A participant or session whose state differs between the two runs at the divergence. */
export interface StateDifference<T> {
  readonly id: string
  readonly a: T | null
  readonly b: T | null
}

/** One difference after the first, events capped for the page (counts say how many there are). */
export interface DifferenceView {
  readonly step_a: number
  readonly step_b: number
  readonly a: readonly TraceEvent[]
  readonly b: readonly TraceEvent[]
  readonly a_count: number
  readonly b_count: number
}

/** `GET /api/diff?a=<run>&b=<run>`: two runs aligned, stopped at the first divergent event. */
export interface RunDiffView extends RunDiffSummary {
  readonly run_a: RunView
  readonly run_b: RunView
  /** At the first divergence (each run's state after its divergent event): what differs. */
  readonly at_divergence: {
    readonly participants: readonly StateDifference<ParticipantView>[]
    readonly sessions: readonly StateDifference<SessionRow>[]
  } | null
  /** Every difference in order (the first included), at most `listed_limit` of them. */
  readonly listed: readonly DifferenceView[]
  readonly listed_limit: number
  /** True when the traces differ too much to align past a point: the rest is one difference. */
  readonly truncated: boolean
}

import type { TraceEvent } from './trace.ts'
import type { ParticipantView, RunView, SessionRow } from './views.ts'

/** The first divergent event of two runs, as `cutover diff --json` prints it (docs/cli.md). */
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

const EVENT_FIELDS = ['type', 'from', 'to', 'phase', 'outcome', 'time_ms'] as const

/**
 * The fields in which two events differ: `type`, `from`, `to`, `phase`, `outcome`, `time_ms` and
 * `payload.<key>` for each payload key whose value differs (key order ignored), in that order;
 * `["(no event)"]` when only one of them exists. Pure.
 */
export function differingFields(a: TraceEvent | null, b: TraceEvent | null): string[] {
  if (a === null || b === null) return a === b ? [] : ['(no event)']
  const out: string[] = EVENT_FIELDS.filter((f) => a[f] !== b[f])
  const keys = [...new Set([...Object.keys(a.payload), ...Object.keys(b.payload)])].sort()
  for (const key of keys)
    if (canonical(a.payload[key]) !== canonical(b.payload[key])) out.push(`payload.${key}`)
  return out
}

/** JSON text with object keys sorted, so two equal values compare equal whatever their order. */
function canonical(value: unknown): string {
  if (value === undefined) return 'undefined'
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>).sort(([x], [y]) =>
    x < y ? -1 : x > y ? 1 : 0,
  )
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`
}

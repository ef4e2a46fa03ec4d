import type {
  TimelineBarKind,
  TimelineLane,
  TimelineView,
  TraceEvent,
} from '@cutover/core/contracts'

/** What `GET /api/runs/:id/timeline?step=&offset=&limit=&rollout=` asks for. */
export interface TimelineQuery {
  readonly step: number
  /** The events the request saw (a running run's edge when it arrived). */
  readonly total: number
  readonly offset: number
  /** Lanes to answer at most (0: only the counts, deadlines and gaps). */
  readonly limit: number
  /** A rollout whose lane index the answer gives (`index`). */
  readonly rollout?: string | undefined
}

/** A bar while it is built (its end and fate still open). */
interface OpenBar {
  kind: TimelineBarKind
  attempt: number
  from_ms: number
  to_ms: number
  step: number
  end_step: number | null
  retired: boolean
  continued: boolean
  label: string
}

/** The whole timeline of a trace prefix, before a window of its lanes is taken. */
interface Timeline {
  readonly start_ms: number
  readonly end_ms: number
  readonly lanes: readonly TimelineLane[]
  readonly laneIndex: ReadonlyMap<string, number>
  readonly deadlines: TimelineView['deadlines']
  readonly gaps: TimelineView['gaps']
}

const TOOL_EVENTS: ReadonlySet<string> = new Set(['env.start', 'env.request', 'env.verify'])
const RETIRE_EVENTS: ReadonlySet<string> = new Set([
  'rollout.retired',
  'agent.retire',
  'model.abort_inflight',
])
const STALE = /^rollout_(.+)$/s

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)
const int = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined

/**
 * Builds the Gantt of `events` (in step order): per rollout, a bar per model call (request →
 * response, or → the cut of a generation-safe checkpoint, or → the retirement that aborted it),
 * per tool call (the attempt's previous message → the environment's answer), per parked stretch (a
 * boundary that parked the execution → the rollout's next message) and per stale request of a
 * retired attempt; the prepare deadlines and the restore gaps. One pass, no payload copied.
 */
export function buildTimeline(events: readonly TraceEvent[], deadlineMs: number): Timeline {
  const lanes: { rollout: string; bars: OpenBar[] }[] = []
  const laneIndex = new Map<string, number>()
  const calls = new Map<string, OpenBar>()
  const parked = new Map<string, OpenBar>()
  const lastMs = new Map<string, number>()
  const retired = new Set<string>()
  const deadlines: { ms: number; step: number }[] = []
  const gaps: { from_ms: number; to_ms: number; from_step: number; to_step: number }[] = []
  let restoreFrom: { ms: number; step: number } | null = null
  let previous: { ms: number; step: number } | null = null
  let inRestore = false
  const laneOf = (rollout: string) => {
    let index = laneIndex.get(rollout)
    if (index === undefined) {
      index = lanes.length
      laneIndex.set(rollout, index)
      lanes.push({ rollout, bars: [] })
    }
    return lanes[index] as { rollout: string; bars: OpenBar[] }
  }
  const push = (rollout: string, bar: OpenBar) => {
    laneOf(rollout).bars.push(bar)
    return bar
  }
  for (const event of events) {
    const p = event.payload
    const ms = event.time_ms
    if (event.type === 'agent.prepare') {
      // the payload's deadline_ms is the deadline's virtual time (prepare start + the run's budget)
      deadlines.push({ ms: int(p['deadline_ms']) ?? ms + deadlineMs, step: event.step })
    }
    // the restore gap: from the checkpoint's publication (the last event before restore) to the
    // first message after resume
    if (event.phase === 'restore' && !inRestore) {
      inRestore = true
      restoreFrom = previous ?? { ms, step: event.step }
    } else if (inRestore && (event.phase === 'continue' || event.phase === 'abort')) {
      inRestore = false
      if (restoreFrom)
        gaps.push({
          from_ms: restoreFrom.ms,
          to_ms: ms,
          from_step: restoreFrom.step,
          to_step: event.step,
        })
    }
    previous = { ms, step: event.step }
    const stale = event.from.startsWith('rollout_') ? STALE.exec(event.from) : null
    const rollout = text(p['rollout_id']) ?? stale?.[1]
    const attempt = int(p['attempt_index'])
    if (rollout === undefined || attempt === undefined) continue
    const key = `${rollout}.a${attempt}`
    // whatever this rollout does next ends a parked stretch
    const park = parked.get(rollout)
    if (park && event.type !== 'agent.boundary') {
      park.to_ms = ms
      park.end_step = event.step
      parked.delete(rollout)
    }
    if (stale) {
      push(rollout, bar('stale', attempt, ms, ms, event.step, event.type, true))
      continue
    }
    laneOf(rollout)
    const call = text(p['model_call_id'])
    switch (event.type) {
      case 'model.request':
        if (call !== undefined) {
          const open = push(rollout, bar('model', attempt, ms, ms, event.step, call, false))
          open.end_step = null
          if (p['relay'] === true) open.continued = true
          calls.set(call, open)
        }
        break
      case 'generation.continue': {
        const open = call === undefined ? undefined : calls.get(call)
        if (open) {
          open.continued = true
          const k = int(p['prefix_token_count'])
          if (k !== undefined) open.label = `${open.label} (continues from token ${k})`
        }
        break
      }
      case 'model.response':
      case 'generation.cut': {
        const open = call === undefined ? undefined : calls.get(call)
        if (open) {
          open.to_ms = ms
          open.end_step = event.step
          if (event.type === 'generation.cut') {
            const k = int(p['prefix_token_count'])
            open.label = `${open.label} (cut at token ${k ?? '?'})`
          }
          calls.delete(call as string)
        }
        break
      }
      case 'agent.boundary':
        if (p['parked'] === true) {
          const open = push(rollout, bar('parked', attempt, ms, ms, event.step, 'parked', false))
          open.end_step = null
          parked.set(rollout, open)
        }
        break
      default:
        if (RETIRE_EVENTS.has(event.type) && !retired.has(key)) {
          retired.add(key)
          for (const b of laneOf(rollout).bars) {
            if (b.attempt !== attempt) continue
            b.retired = true
            if (b.end_step === null && b.kind === 'model') {
              b.to_ms = ms
              b.end_step = event.step
              calls.delete(b.label)
            }
          }
        } else if (TOOL_EVENTS.has(event.type)) {
          const path = text(p['path']) ?? event.type
          // the call went out when the agent last heard back (a model response, an environment
          // answer); after a dispatch or a boundary it is drawn as the instant it was answered
          const from = lastMs.get(key) ?? ms
          push(rollout, bar('tool', attempt, from, ms, event.step, path, retired.has(key)))
        }
    }
    if (event.type === 'model.response' || TOOL_EVENTS.has(event.type)) lastMs.set(key, ms)
    else lastMs.delete(key)
  }
  const first = events[0]?.time_ms ?? 0
  const last = events[events.length - 1]?.time_ms ?? first
  // what is still open at the edge reaches the edge
  for (const lane of lanes)
    for (const b of lane.bars)
      if (b.end_step === null) {
        b.to_ms = last
        if (b.kind !== 'model' || !retired.has(`${lane.rollout}.a${b.attempt}`)) continue
        b.retired = true
      }
  return { start_ms: first, end_ms: last, lanes, laneIndex, deadlines, gaps }
}

function bar(
  kind: TimelineBarKind,
  attempt: number,
  from: number,
  to: number,
  step: number,
  label: string,
  retired: boolean,
): OpenBar {
  return {
    kind,
    attempt,
    from_ms: from,
    to_ms: to,
    step,
    end_step: step,
    retired,
    continued: false,
    label,
  }
}

type Source = { readonly events: readonly TraceEvent[]; readonly config?: { deadline_ms: number } }

/** The last timeline built per run (a scroll asks window after window of the same prefix). */
const built = new WeakMap<object, { readonly total: number; readonly timeline: Timeline }>()

/**
 * A window of the timeline's lanes over the run's first `total` events, built where the
 * simulation lives (the run's worker thread) and kept for the next window of the same prefix: at
 * 10,000 rollouts the whole Gantt is ≈ 60,000 bars, a window of 60 lanes a few KB.
 */
export function timelineView(result: Source, query: TimelineQuery): TimelineView {
  const total = Math.min(query.total, result.events.length)
  let entry = built.get(result)
  if (entry?.total !== total) {
    const events = total === result.events.length ? result.events : result.events.slice(0, total)
    entry = { total, timeline: buildTimeline(events, result.config?.deadline_ms ?? 0) }
    built.set(result, entry)
  }
  const { timeline } = entry
  const offset = Math.min(query.offset, timeline.lanes.length)
  const step = Math.min(query.step, total)
  const now = step > 0 ? (result.events[step - 1]?.time_ms ?? timeline.start_ms) : timeline.start_ms
  const view: TimelineView = {
    step,
    total,
    start_ms: timeline.start_ms,
    end_ms: timeline.end_ms,
    now_ms: now,
    rollouts: timeline.lanes.length,
    offset,
    lanes: timeline.lanes.slice(offset, offset + query.limit),
    deadlines: timeline.deadlines,
    gaps: timeline.gaps,
  }
  if (query.rollout === undefined) return view
  return { ...view, index: timeline.laneIndex.get(query.rollout) ?? null }
}

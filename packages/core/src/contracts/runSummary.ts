import type { TraceEvent, TracePhase } from './trace.ts'

/** The phases the scrubber colours (docs/inspector.md); the others leave the track plain. */
export const BANDED_PHASES = ['prepare', 'retire', 'commit', 'restore', 'resume'] as const
export type BandedPhase = (typeof BANDED_PHASES)[number]

/** A run of consecutive steps in one banded phase, inclusive. */
export interface PhaseBand {
  readonly phase: BandedPhase
  readonly from: number
  readonly to: number
}

/** What happens at a key moment. */
export type MomentKind =
  'fault' | 'retired' | 'cut' | 'continue' | 'published' | 'restore' | 'abort' | 'invariant'

/** A step worth jumping to, with a one-line label. */
export interface KeyMoment {
  readonly step: number
  readonly kind: MomentKind
  readonly label: string
}

/**
 * What the run page needs from the whole trace, without the trace (`GET /api/runs/:id/summary`):
 * its event count, the scrubber's phase bands, the phases present, the key moments the events
 * carry (invariant failures are the run's, not here) and the last event (the live edge's line).
 */
export interface RunSummary {
  readonly total: number
  readonly bands: readonly PhaseBand[]
  readonly phases: readonly TracePhase[]
  readonly moments: readonly KeyMoment[]
  readonly last: TraceEvent | null
}

const isBanded = (phase: TracePhase): phase is BandedPhase =>
  (BANDED_PHASES as readonly string[]).includes(phase)

const rolloutOf = (e: TraceEvent): string => {
  const r = e.payload['rollout_id']
  const a = e.payload['attempt_index']
  return typeof r === 'string' ? (typeof a === 'number' ? `${r}.a${a}` : r) : ''
}

/**
 * The key moment one event is, if any: a fault taking effect (a crashed write, a flipped byte, a
 * missing worker, a refused stale request, a duplicate claim), a straggler retired, a generation
 * cut and its continuation, an abort, a checkpoint published.
 */
function momentOf(e: TraceEvent): KeyMoment | undefined {
  const at = (kind: MomentKind, label: string): KeyMoment => ({ step: e.step, kind, label })
  if (e.type === 'rollout.retired') return at('retired', `straggler ${rolloutOf(e)} retired`)
  if (e.type === 'generation.cut')
    return at('cut', `${rolloutOf(e)} cut at token ${String(e.payload['prefix_token_count'])}`)
  if (e.type === 'generation.continue')
    return at(
      'continue',
      `${rolloutOf(e)} continues from token ${String(e.payload['prefix_token_count'])}`,
    )
  if (e.type === 'fault.corrupt_file')
    return at('fault', `fault: byte flipped in ${String(e.payload['path'])}`)
  if (e.type === 'directory.write' && e.outcome !== 'ok')
    return at('fault', `fault: write crashed (${String(e.payload['path'])})`)
  if (e.type === 'model.status' && e.outcome === 'missing_workers')
    return at('fault', 'fault: a model worker never acknowledged')
  if (e.payload['delayed'] === true)
    return at(
      'fault',
      `fault: delayed request of ${rolloutOf(e)} ${e.outcome === 'ok' ? 'accepted' : `refused (${e.outcome})`}`,
    )
  if (e.type === 'run.dispatch' && e.outcome === 'duplicate_execution')
    return at('fault', `fault: ${rolloutOf(e)} claimed twice (refused)`)
  if (e.type === 'controller.abort')
    return at('abort', `checkpoint aborted: ${String(e.payload['reason'])}`)
  if (e.type === 'directory.write' && e.outcome === 'ok' && e.payload['path'] === 'checkpoint.json')
    return at('published', `checkpoint ${String(e.payload['checkpoint_id'])} published`)
  return undefined
}

/** Phase bands kept up to date one step at a time. */
function createBandTrack(): { add(step: number, phase: TracePhase): void; bands(): PhaseBand[] } {
  const done: PhaseBand[] = []
  let open: { phase: BandedPhase; from: number; to: number } | null = null
  return {
    add(step, phase) {
      if (open !== null && open.phase === phase && step === open.to + 1) {
        open.to = step
        return
      }
      if (open !== null) done.push(open)
      open = isBanded(phase) ? { phase, from: step, to: step } : null
    },
    bands: () => (open === null ? done.slice() : [...done, { ...open }]),
  }
}

/**
 * Groups a trace into bands of consecutive steps that share a banded phase. A phase that comes
 * back later (a second cycle) gives a second band, so bands stay in step order.
 */
export function phaseBands(events: readonly Pick<TraceEvent, 'step' | 'phase'>[]): PhaseBand[] {
  const track = createBandTrack()
  for (const e of events) track.add(e.step, e.phase)
  return track.bands()
}

/** A run summary kept up to date one event at a time (each event is looked at once). */
export interface RunSummaryBuilder {
  /**
   * Adds the events after the ones already added: `events` is the whole trace so far, or its next
   * slice when `from` says where it starts.
   */
  addFrom(events: readonly TraceEvent[], from?: number): void
  /** How many events were added. */
  readonly count: number
  /** The summary of the events added so far (a copy: later events do not change it). */
  summary(): RunSummary
}

/**
 * Builds a run summary in one pass (bands as `phaseBands`). The restore's start is a moment of its
 * own (the first restore event after anything but restore or resume).
 */
export function createRunSummaryBuilder(): RunSummaryBuilder {
  const bands = createBandTrack()
  const phases = new Set<TracePhase>()
  const moments: KeyMoment[] = []
  let restoring = false
  let last: TraceEvent | null = null
  let count = 0
  const add = (e: TraceEvent): void => {
    count++
    last = e
    phases.add(e.phase)
    bands.add(e.step, e.phase)
    const moment = momentOf(e)
    if (moment !== undefined) moments.push(moment)
    if (e.phase === 'restore' && !restoring)
      moments.push({ step: e.step, kind: 'restore', label: 'restore begins' })
    restoring = e.phase === 'restore' || (restoring && e.phase !== 'resume')
  }
  return {
    addFrom(events, from = 0) {
      for (let i = count - from; i < events.length; i++) add(events[i] as TraceEvent)
    },
    get count() {
      return count
    },
    summary() {
      return {
        total: count,
        bands: bands.bands(),
        phases: [...phases],
        moments: moments.slice(),
        last,
      }
    },
  }
}

/** The summary of a whole trace. */
export function runSummary(events: readonly TraceEvent[]): RunSummary {
  const builder = createRunSummaryBuilder()
  builder.addFrom(events)
  return builder.summary()
}

import type { TraceEvent, TracePhase } from '@cutover/core/contracts'

/** The phases the scrubber colours (PRODUCT.md §5); the others leave the track plain. */
export const BANDED_PHASES = ['prepare', 'retire', 'commit', 'restore', 'resume'] as const
export type BandedPhase = (typeof BANDED_PHASES)[number]

/** A run of consecutive steps in one banded phase, inclusive. */
export interface PhaseBand {
  readonly phase: BandedPhase
  readonly from: number
  readonly to: number
}

const isBanded = (phase: TracePhase): phase is BandedPhase => (BANDED_PHASES as readonly string[]).includes(phase)

/**
 * Groups the trace into bands of consecutive steps that share a banded phase. A phase that comes
 * back later (a second cycle) gives a second band, so bands stay in step order.
 */
export function phaseBands(events: readonly Pick<TraceEvent, 'step' | 'phase'>[]): PhaseBand[] {
  const bands: PhaseBand[] = []
  let open: { phase: BandedPhase; from: number; to: number } | null = null
  for (const event of events) {
    if (open && open.phase === event.phase && event.step === open.to + 1) {
      open.to = event.step
      continue
    }
    if (open) bands.push(open)
    open = isBanded(event.phase) ? { phase: event.phase, from: event.step, to: event.step } : null
  }
  if (open) bands.push(open)
  return bands
}

import type { PhaseBand } from '@cutover/core/contracts'

/** Where one phase of the cycle begins: its first step. */
export interface PhaseStart {
  readonly phase: PhaseBand['phase']
  readonly step: number
}

/**
 * The phases of the cycle in step order, for "previous/next phase": a phase starts where the
 * banded phase changes. Bands of the same phase split only by other traffic (rollouts still
 * running during prepare) belong to one phase.
 */
export function phaseStarts(bands: readonly PhaseBand[]): PhaseStart[] {
  const starts: PhaseStart[] = []
  for (const band of bands)
    if (starts.at(-1)?.phase !== band.phase) starts.push({ phase: band.phase, step: band.from })
  return starts
}

/** The first phase start after `step`, or undefined. */
export const nextPhase = (starts: readonly PhaseStart[], step: number): PhaseStart | undefined =>
  starts.find((s) => s.step > step)

/** The last phase start before `step`, or undefined. */
export const previousPhase = (
  starts: readonly PhaseStart[],
  step: number,
): PhaseStart | undefined => starts.findLast((s) => s.step < step)

import { describe, expect, it } from 'vitest'
import { phaseBands } from '@cutover/core/contracts'
import { nextPhase, phaseStarts, previousPhase } from './phaseStarts.ts'

describe('phase starts', () => {
  const phases = [
    'run',
    'prepare',
    'run',
    'prepare',
    'retire',
    'commit',
    'commit',
    'restore',
    'resume',
    'continue',
  ] as const
  const starts = phaseStarts(phaseBands(phases.map((phase, i) => ({ step: i + 1, phase }))))
  it('[phases] one start per phase of the cycle, a phase split by running traffic counted once', () => {
    expect(starts).toEqual([
      { phase: 'prepare', step: 2 },
      { phase: 'retire', step: 5 },
      { phase: 'commit', step: 6 },
      { phase: 'restore', step: 8 },
      { phase: 'resume', step: 9 },
    ])
  })
  it('[phases] next and previous phase from any step', () => {
    expect(nextPhase(starts, 0)?.step).toBe(2)
    expect(nextPhase(starts, 2)?.step).toBe(5)
    expect(nextPhase(starts, 9)).toBeUndefined()
    expect(previousPhase(starts, 6)?.step).toBe(5)
    expect(previousPhase(starts, 2)).toBeUndefined()
  })
})

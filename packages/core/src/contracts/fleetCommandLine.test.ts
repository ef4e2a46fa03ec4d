import { describe, expect, it } from 'vitest'
import { fleetCommandLine } from './fleetCommandLine.ts'
import { simulateCommandLine } from './simulateCommandLine.ts'

describe('the command line of a run', () => {
  it('[fleet-trace] a run recorded from processes is recorded again by `npx cutover fleet`, as pasted at the repo root, with its scenario, seed and rollouts', () => {
    expect(fleetCommandLine({ scenario: 'straggler-retirement', seed: '7', rollouts: 9 })).toBe(
      'npx cutover fleet --scenario straggler-retirement --seed 7 --rollouts 9',
    )
  })

  it('[cli] a simulated run is reproduced by `npx cutover simulate` (runs as pasted at the repo root) with every option', () => {
    expect(
      simulateCommandLine({
        scenario: 'happy-path',
        seed: '3',
        rollouts: 12,
        deadline_ms: 100,
        faults: [],
      }),
    ).toBe(
      "npx cutover simulate --scenario happy-path --seed 3 --rollouts 12 --deadline-ms 100 --faults '[]'",
    )
  })
})

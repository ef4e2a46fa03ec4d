import { describe, expect, it } from 'vitest'
import { defaultRunLimits, readRunLimits } from './runLimits.ts'

describe('run limits', () => {
  it('[bounded] default to one simulation per core; each CUTOVER_MAX_* overrides its limit', () => {
    const defaults = defaultRunLimits()
    expect(defaults.simulations).toBeGreaterThanOrEqual(1)
    expect(readRunLimits({})).toEqual({ ok: true, value: defaults })
    expect(
      readRunLimits({
        CUTOVER_MAX_SIMULATIONS: '3',
        CUTOVER_MAX_QUEUED_RUNS: '0',
        CUTOVER_MAX_RUNS: '10',
        CUTOVER_MAX_STREAMS_PER_RUN: '4',
      }),
    ).toEqual({
      ok: true,
      value: { simulations: 3, queued: 0, runs: 10, streamsPerRun: 4 },
    })
  })

  it('[bounded] a limit that is not a whole number in range is an error naming the variable', () => {
    for (const [name, value] of [
      ['CUTOVER_MAX_SIMULATIONS', '0'],
      ['CUTOVER_MAX_RUNS', '-1'],
      ['CUTOVER_MAX_RUNS', '1e3'],
      ['CUTOVER_MAX_QUEUED_RUNS', 'many'],
    ] as const) {
      const read = readRunLimits({ [name]: value })
      expect(read.ok).toBe(false)
      if (!read.ok) expect(read.error).toContain(name)
    }
  })
})

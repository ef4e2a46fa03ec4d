import { describe, expect, it } from 'vitest'
import { rerunConfig } from './rerunConfig.ts'

describe('re-run config', () => {
  const run = { scenario: 'happy-path' as const, seed: '21', rollouts: 9, deadline_ms: 100 }
  it('[inject] copies scenario, seed, rollouts, deadline and bug, with the given schedule', () => {
    expect(
      rerunConfig({ ...run, bug: 'relay-applied-twice' }, [{ kind: 'missing_worker', worker: 1 }]),
    ).toEqual({
      ...run,
      bug: 'relay-applied-twice',
      faults: [{ kind: 'missing_worker', worker: 1 }],
    })
  })
  it("[inject] an empty schedule stays explicit (no fault, not the preset's)", () => {
    expect(rerunConfig(run, [])).toEqual({ ...run, faults: [] })
  })
  it('[inject] a generation-safe run stays generation-safe', () => {
    expect(
      rerunConfig({ ...run, scenario: 'generation-safe-cut', cut_mode: 'generation-safe' }, []),
    ).toEqual({ ...run, scenario: 'generation-safe-cut', cut_mode: 'generation-safe', faults: [] })
  })
})

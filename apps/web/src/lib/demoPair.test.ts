import { describe, expect, it } from 'vitest'
import type { RunView, ScenarioInfo } from '@cutover/core/contracts'
import { demoPair } from './demoPair.ts'

const preset = (name: string): ScenarioInfo =>
  ({
    name,
    title: name,
    narrative: '',
    config: { rollouts: 9, deadline_ms: 400 },
    faults: [],
  }) as unknown as ScenarioInfo
const A = preset('straggler-retirement')
const B = preset('generation-safe-cut')
let n = 0
const run = (scenario: string, seed: string, extra: Partial<RunView> = {}): RunView =>
  ({
    id: `run${++n}`,
    scenario,
    seed,
    rollouts: 9,
    deadline_ms: 400,
    faults: [],
    status: 'complete',
    created_at: `2026-01-01T00:00:${String(n).padStart(2, '0')}Z`,
    ...extra,
  }) as unknown as RunView

describe('generation-cut demo pair', () => {
  it('[demo-pair] picks the newest pair with one seed, skipping runs that differ from their preset', () => {
    const a1 = run('straggler-retirement', '1')
    const b1 = run('generation-safe-cut', '1')
    const b2 = run('generation-safe-cut', '2')
    const odd = run('straggler-retirement', '2', { rollouts: 30 })
    const failed = run('straggler-retirement', '2', { status: 'failed' })
    expect(demoPair([a1, b1, b2, odd, failed], A, B)).toEqual({ a: a1, b: b1, seed: '1' })
  })

  it('[demo-pair] without a full pair keeps the newest run and names its seed for the other', () => {
    const b = run('generation-safe-cut', '5')
    expect(demoPair([b], A, B)).toEqual({ a: null, b, seed: '5' })
    const a = run('straggler-retirement', '6')
    expect(demoPair([a, run('happy-path', '6')], A, B)).toEqual({ a, b: null, seed: '6' })
    expect(
      demoPair(
        [run('straggler-retirement', '6', { bug: 'call-ids-reused' } as Partial<RunView>)],
        A,
        B,
      ),
    ).toEqual({ a: null, b: null, seed: null })
  })
})

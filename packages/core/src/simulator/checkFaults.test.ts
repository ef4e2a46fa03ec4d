import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { loadNodeWorkplaceData } from '../adapters/nodeWorkplaceData.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { resolveRunConfig, runSimulation } from './simulate.ts'
import { checkFaults } from './checkFaults.ts'
import { inertFaults } from './inertFaults.ts'
import { runScenarioInMemory } from '../testing/runScenarioInMemory.ts'
import { SCENARIO_NAMES } from '../contracts/scenarios.ts'

describe('faults are checked', () => {
  const config = resolveRunConfig({ scenario: 'happy-path', rollouts: 90 })
  it('[faults] a rollout named by an id the run does not print is refused, naming the valid form', () => {
    const r = checkFaults(config, [{ kind: 'straggler', rollout: 'r7', extra_ms: 400 }])
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error.code).toBe('invalid_request')
      expect(r.error.message).toContain('"r7"')
      expect(r.error.message).toContain('"r00"…"r89"')
      expect(r.error.message).toContain('0…89')
    }
  })
  it('[faults] an index beyond the run and a worker the run does not have are refused', () => {
    expect(checkFaults(config, [{ kind: 'unacked_result', rollout: 90 }]).ok).toBe(false)
    const w = checkFaults(config, [{ kind: 'missing_worker', worker: 2 }])
    expect(w.ok ? '' : w.error.message).toContain('0…1')
  })
  it('[faults] a rollout by its printed id or by its index is accepted', () => {
    expect(
      checkFaults(config, [
        { kind: 'straggler', rollout: 'r07', extra_ms: 400 },
        { kind: 'duplicate_claim', rollout: 89 },
        { kind: 'missing_worker', worker: 1 },
      ]).ok,
    ).toBe(true)
  })
})

describe('faults that never fire are reported', () => {
  it('[faults] every preset fault fires in its own scenario (no inert faults)', () => {
    for (const scenario of SCENARIO_NAMES)
      expect([scenario, runScenarioInMemory(scenario, '0').result.inert_faults]).toEqual([
        scenario,
        [],
      ])
  })
  it('[faults] crash_after_write beyond the commit’s writes is listed with its reason', () => {
    const { result } = runScenarioInMemory('happy-path', '0', 9)
    const config = {
      ...result.config,
      faults: [{ kind: 'crash_after_write' as const, k: 100_000 }],
    }
    const inert = inertFaults(config, result.events)
    expect(inert).toHaveLength(1)
    expect(inert[0]?.reason).toMatch(
      /^this fault had no effect: the run made fewer than 100000 directory writes/,
    )
  })
  it('[faults] several crash_after_write faults each crash their own write (counted over the run, crashed ones included); one never reached is listed', () => {
    const { result } = runScenarioInMemory('happy-path', '0', 9)
    const config = resolveRunConfig({
      scenario: 'happy-path',
      seed: '0',
      faults: [
        { kind: 'crash_after_write', k: 3 },
        { kind: 'crash_after_write', k: 5 },
        { kind: 'crash_after_write', k: 100_000 },
      ],
    })
    const crashed = runSimulation(config, {
      digest: nodeDigest,
      workplace: loadNodeWorkplaceData(),
      openDirectory: (id) => new MemoryCheckpointDirectory({ location: `mem://${id}` }),
    })
    const writes = crashed.events.filter((e) => e.type === 'directory.write')
    expect(writes.flatMap((e, i) => (e.outcome === 'ok' ? [] : [i + 1]))).toEqual([3, 5])
    expect(crashed.inert_faults.map((f) => f.fault)).toEqual([
      { kind: 'crash_after_write', k: 100_000 },
    ])
    expect(crashed.outcome).toBe('completed')
    expect(result.events.filter((e) => e.type === 'directory.write').length).toBeGreaterThan(5)
  })
})

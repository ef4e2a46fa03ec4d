import { describe, expect, it } from 'vitest'
import { SCENARIO_NAMES } from '../contracts/scenarios.ts'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { loadNodeWorkplaceData } from '../adapters/nodeWorkplaceData.ts'
import type { WorkplaceData } from '../environments/workplace/WorkplaceData.ts'
import type { ScenarioName } from '../contracts/scenarios.ts'
import type { SimulationResult } from '../simulator/Simulation.ts'
import { resolveRunConfig, runSimulation } from '../simulator/simulate.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'

/**
 * Small fleets keep 100 seeds per scenario cheap: two rollouts (Blackjack, counter) for every seed
 * but the last, which runs a mixed fleet of four including Workplace Assistant (its `/verify` is
 * the costliest call; the scenario tests cover nine-rollout fleets).
 */
const PROPERTY_SEEDS: readonly number[] = Array.from({ length: 100 }, (_, i) => i)
const fleetFor = (seed: number): number => (seed === 99 ? 4 : 2)

let workplace: WorkplaceData | undefined
/** Workplace data, read once per test file and only when a fleet has a Workplace rollout. */
const workplaceFor = (rollouts: number): WorkplaceData | undefined => {
  if (rollouts < 3) return undefined
  workplace ??= loadNodeWorkplaceData()
  return workplace
}

/** One seeded run over in-memory directories (kept, so tests can compare their bytes). */
function runScenario(
  scenario: ScenarioName,
  seed: string,
  rollouts: number,
): { result: SimulationResult; dirs: Map<string, MemoryCheckpointDirectory> } {
  const dirs = new Map<string, MemoryCheckpointDirectory>()
  const data = workplaceFor(rollouts)
  const result = runSimulation(resolveRunConfig({ scenario, seed, rollouts }), {
    digest: nodeDigest,
    ...(data === undefined ? {} : { workplace: data }),
    openDirectory: (id) => {
      const d = dirs.get(id) ?? new MemoryCheckpointDirectory({ location: `mem://${id}` })
      dirs.set(id, d)
      return d
    },
  })
  return { result, dirs }
}

/**
 * The failures of one scenario over every property seed, as `{seed, failures, outcome}` rows (empty
 * when all pass).
 */
function propertyViolations(scenario: ScenarioName): {
  seed: number
  failures: SimulationResult['failures']
  outcome: SimulationResult['outcome']
}[] {
  const out: {
    seed: number
    failures: SimulationResult['failures']
    outcome: SimulationResult['outcome']
  }[] = []
  for (const seed of PROPERTY_SEEDS) {
    const { result } = runScenario(scenario, String(seed * 7919), fleetFor(seed))
    if (result.failures.length > 0 || result.outcome !== 'completed')
      out.push({ seed, failures: result.failures, outcome: result.outcome })
  }
  return out
}

describe(`invariants hold for every scenario over ${PROPERTY_SEEDS.length} seeds`, () => {
  for (const scenario of SCENARIO_NAMES) {
    it(`[property] ${scenario}: every invariant passes and the run completes`, () => {
      expect(propertyViolations(scenario)).toEqual([])
    })
  }
})

describe(`call-id-unique over ${PROPERTY_SEEDS.length} seeds`, () => {
  // The property above holds call-id-unique on every scenario; this shows it has teeth at the same
  // fleet sizes: with restored processes reusing ids, every scenario that restores fails it.
  it('[call-id-unique] the call-ids-reused bug fails it on every scenario that continues a rollout after restore', () => {
    let checked = 0
    for (const scenario of SCENARIO_NAMES) {
      for (const seed of [0, 1, 2]) {
        const config = resolveRunConfig({
          scenario,
          seed: String(seed * 7919),
          rollouts: 2,
          bug: 'call-ids-reused',
        })
        const result = runSimulation(config, {
          digest: nodeDigest,
          openDirectory: (id) => new MemoryCheckpointDirectory({ location: `mem://${id}` }),
        })
        const restoredCalls = result.events.some(
          (e) =>
            e.type === 'model.request' && e.outcome === 'ok' && e.payload['attempt_index'] === 1,
        )
        if (!restoredCalls) continue
        checked++
        expect([scenario, seed, result.invariants['call-id-unique']]).toEqual([
          scenario,
          seed,
          'fail',
        ])
      }
    }
    expect(checked).toBeGreaterThanOrEqual(SCENARIO_NAMES.length)
  })
})

describe(`acks-before-prepare over ${PROPERTY_SEEDS.length} seeds`, () => {
  // The property above holds acks-before-prepare on every scenario; with the acknowledgements sent
  // after prepare, every run whose first checkpoint finds a completed result fails it.
  it('[controller.acks-before-prepare] the acks-after-prepare bug fails it on every scenario that completes a result before the checkpoint', () => {
    let checked = 0
    for (const scenario of SCENARIO_NAMES) {
      for (const seed of [0, 1, 2]) {
        const config = resolveRunConfig({
          scenario,
          seed: String(seed * 7919),
          rollouts: 2,
          bug: 'acks-after-prepare',
        })
        const result = runSimulation(config, {
          digest: nodeDigest,
          openDirectory: (id) => new MemoryCheckpointDirectory({ location: `mem://${id}` }),
        })
        const prepare = result.events.findIndex((e) => e.type === 'agent.prepare')
        const completedBefore = result.events
          .slice(0, Math.max(prepare, 0))
          .some((e) => e.type === 'run.complete' && e.outcome === 'ok')
        if (!completedBefore) continue
        checked++
        expect([scenario, seed, result.invariants['acks-before-prepare']]).toEqual([
          scenario,
          seed,
          'fail',
        ])
      }
    }
    expect(checked).toBeGreaterThanOrEqual(SCENARIO_NAMES.length)
  })
})

describe('determinism', () => {
  it('[determinism] two runs with the same seed give identical traces and directory bytes', () => {
    for (const scenario of ['happy-path', 'crash-during-commit', 'straggler-retirement'] as const) {
      const a = runScenario(scenario, '1180591620717411303435', 6)
      const b = runScenario(scenario, '1180591620717411303435', 6)
      expect(JSON.stringify(b.result.events)).toBe(JSON.stringify(a.result.events))
      expect([...b.dirs.keys()]).toEqual([...a.dirs.keys()])
      for (const [id, dir] of a.dirs) {
        const other = b.dirs.get(id) as MemoryCheckpointDirectory
        expect(other.list()).toEqual(dir.list())
        for (const e of dir.list())
          expect(
            Buffer.from(other.readFile(e.path) ?? []).equals(
              Buffer.from(dir.readFile(e.path) ?? []),
            ),
          ).toBe(true)
      }
    }
  })

  it('[determinism] a different seed gives a different trace', () => {
    const a = runScenario('happy-path', '1', 4)
    const b = runScenario('happy-path', '2', 4)
    expect(JSON.stringify(a.result.events)).not.toBe(JSON.stringify(b.result.events))
  })
})

import { describe, expect, it } from 'vitest'
import { BUG_NAMES, CUT_BUG_NAMES } from '../contracts/bugs.ts'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { loadNodeWorkplaceData } from '../adapters/nodeWorkplaceData.ts'
import type { ScenarioName } from '../contracts/scenarios.ts'
import { resolveRunConfig, runSimulation } from '../simulator/simulate.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import type { BugName } from '../contracts/bugs.ts'
import { BUG_CATALOGUE, bugInfo } from './bugCatalogue.ts'

const workplace = loadNodeWorkplaceData()
const run = (scenario: ScenarioName, seed: string, bug?: BugName) =>
  runSimulation(resolveRunConfig({ scenario, seed, ...(bug === undefined ? {} : { bug }) }), {
    digest: nodeDigest,
    workplace,
    openDirectory: (id) => new MemoryCheckpointDirectory({ location: `mem://${id}` }),
  })

describe('teaching-mode bugs', () => {
  it('[bugs] the catalogue lists every bug once, each with a narrative and an invariant', () => {
    expect(BUG_CATALOGUE.map((b) => b.name)).toEqual([...BUG_NAMES])
    for (const b of BUG_CATALOGUE) expect(b.narrative.length).toBeGreaterThan(20)
  })
  // A cut bug shows only where a generation is cut: on the generation-safe scenarios (an unfenced
  // egress only where a frozen call finishes during the cut).
  const scenariosFor = (name: BugName): readonly ScenarioName[] =>
    name === 'egress-unfenced'
      ? ['completed-before-egress']
      : (CUT_BUG_NAMES as readonly string[]).includes(name)
        ? ['generation-safe-cut', 'completed-before-egress']
        : ['happy-path', 'straggler-retirement']
  for (const name of BUG_NAMES)
    for (const scenario of scenariosFor(name))
      it(`[bugs] ${name} fails ${bugInfo(name).invariant} on ${scenario}`, () => {
        const result = run(scenario, '0', name)
        expect(result.invariants[bugInfo(name).invariant]).toBe('fail')
        const failure = result.failures.find((f) => f.id === bugInfo(name).invariant)
        expect(failure?.step).toBeGreaterThan(0)
        expect(result.config.bug).toBe(name)
      })
})

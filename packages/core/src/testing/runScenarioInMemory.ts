import { nodeDigest } from '../adapters/nodeDigest.ts'
import { loadNodeWorkplaceData } from '../adapters/nodeWorkplaceData.ts'
import type { ScenarioName } from '../contracts/scenarios.ts'
import type { SimulateOptions } from '../simulator/simulate.ts'
import { resolveRunConfig, runSimulation } from '../simulator/simulate.ts'
import type { SimulationResult } from '../simulator/Simulation.ts'
import { MemoryCheckpointDirectory } from './MemoryCheckpointDirectory.ts'

const workplace = loadNodeWorkplaceData()

/**
 * Runs a scenario preset to the end with in-memory checkpoint directories (one per checkpoint id,
 * kept).
 */
export function runScenarioInMemory(
  scenario: ScenarioName,
  seed = '0',
  rollouts?: number,
  options: SimulateOptions = {},
): { result: SimulationResult; dirs: Map<string, MemoryCheckpointDirectory> } {
  const dirs = new Map<string, MemoryCheckpointDirectory>()
  const deps = {
    digest: nodeDigest,
    workplace,
    openDirectory: (id: string) => {
      let d = dirs.get(id)
      if (d === undefined) {
        d = new MemoryCheckpointDirectory({ location: `mem://${id}` })
        dirs.set(id, d)
      }
      return d
    },
  }
  const result = runSimulation(
    resolveRunConfig({ scenario, seed, ...(rollouts === undefined ? {} : { rollouts }) }),
    deps,
    options,
  )
  return { result, dirs }
}

import type { WorkplaceData } from '@cutover/core'
import { SCENARIOS, ok, resolveRunConfig, simulate } from '@cutover/core'
import type { SimulatorPort } from './SimulatorPort.ts'

/** The core simulator behind the port, with the Workplace data every run with 3+ rollouts needs. */
export function createCoreSimulator(workplace: WorkplaceData): SimulatorPort {
  return {
    scenarios: SCENARIOS,
    resolve: (input) => ok(resolveRunConfig(input)),
    simulate: (config, deps, options) => simulate(config, { ...deps, workplace }, options),
  }
}

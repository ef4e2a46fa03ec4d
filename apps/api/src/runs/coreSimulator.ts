import type { WorkplaceData } from '@cutover/core'
import { SCENARIOS, checkFaults, resolveRunConfig, simulate } from '@cutover/core'
import type { SimulatorPort } from './SimulatorPort.ts'

/** The core simulator behind the port, with the Workplace data every run with 3+ rollouts needs. */
export function createCoreSimulator(workplace: WorkplaceData): SimulatorPort {
  return {
    scenarios: SCENARIOS,
    // Faults the caller wrote are checked against the run (a preset's never fired ones are reported
    // as inert).
    resolve: (input) => checkFaults(resolveRunConfig(input), input.faults ?? []),
    simulate: (config, deps, options) => simulate(config, { ...deps, workplace }, options),
  }
}

import type { RunView } from '@cutover/core/contracts'
import type { RunManager } from './RunManager.ts'
import type { SimulatorPort } from './SimulatorPort.ts'

/** The scenario `npm start` shows first (docs/http-api.md). */
export const DEMO_SCENARIO = 'straggler-retirement'

/**
 * Creates the straggler-retirement demo run when the data directory holds no run at all, so the
 * first page shows something real; returns it, or undefined when runs already exist.
 */
export function ensureDemoRun(runs: RunManager, simulator: SimulatorPort): RunView | undefined {
  if (runs.list().length > 0) return undefined
  const config = simulator.resolve({ scenario: DEMO_SCENARIO })
  if (!config.ok) throw new Error(`cannot create the demo run: ${config.error.message}`)
  const created = runs.create(config.value)
  if (!created.ok) throw new Error(`cannot create the demo run: ${created.error.message}`)
  return created.value
}

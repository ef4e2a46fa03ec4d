import { parentPort, workerData } from 'node:worker_threads'
import type { WorkplaceData } from '@cutover/core'
import type { BenchRunRequest } from './measureSimulationRun.ts'
import { measureSimulationRun } from './measureSimulationRun.ts'

// One bench simulation in its own worker thread (started by runBenchSimulation.ts): posts its
// figures, or `{ error }` when the run threw.
const { request, workplace } = workerData as { readonly request: BenchRunRequest; readonly workplace: WorkplaceData }
try {
  parentPort?.postMessage({ figures: measureSimulationRun(request, workplace) })
} catch (error) {
  parentPort?.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) })
}

import { parentPort, workerData } from 'node:worker_threads'
import type { WorkplaceData } from '@cutover/core'
import type { BenchRunFigures, BenchRunRequest } from './measureSimulationRun.ts'
import { measureSimulationRun } from './measureSimulationRun.ts'

/**
 * Bench worker → main thread: a run starts, then every run's figures (or the error that stopped
 * them).
 */
export type FromBenchWorker =
  | { readonly started: number }
  | { readonly figures: readonly BenchRunFigures[] }
  | { readonly error: string }

// The bench's simulations in one worker thread (started by runBenchSimulations.ts), one after the
// other; each run's trace and result are dropped before the next starts.
const { requests, workplace } = workerData as {
  readonly requests: readonly BenchRunRequest[]
  readonly workplace: WorkplaceData
}
const post = (message: FromBenchWorker): void => parentPort?.postMessage(message)
try {
  const figures: BenchRunFigures[] = []
  for (const [i, request] of requests.entries()) {
    post({ started: i })
    figures.push(measureSimulationRun(request, workplace))
  }
  post({ figures })
} catch (error) {
  post({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) })
}

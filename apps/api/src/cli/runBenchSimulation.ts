import { Worker } from 'node:worker_threads'
import type { WorkplaceData } from '@cutover/core'
import { simulationHeapLimitMb } from '../runs/simulationHeapLimitMb.ts'
import type { BenchRunFigures, BenchRunRequest } from './measureSimulationRun.ts'

const BOOTSTRAP = new URL('./benchSimulationWorkerBootstrap.js', import.meta.url)

/**
 * Runs one bench simulation the way the server runs a simulation: in its own worker thread with
 * the heap budget of its size (`simulationHeapLimitMb`), so `peak_rss_mb` is what a run of that size
 * costs the server's process. Rejects when the run threw or outgrew its heap.
 */
export function runBenchSimulation(request: BenchRunRequest, workplace: WorkplaceData): Promise<BenchRunFigures> {
  const limitMb = simulationHeapLimitMb(request.rollouts)
  const worker = new Worker(BOOTSTRAP, { workerData: { request, workplace }, resourceLimits: { maxOldGenerationSizeMb: limitMb } })
  // Settles once the thread is gone, so the next run never shares the process with this one's heap.
  return new Promise<BenchRunFigures>((resolve, reject) => {
    let outcome: { readonly figures: BenchRunFigures } | { readonly error: Error } | undefined
    worker.once('message', (message: { readonly figures?: BenchRunFigures; readonly error?: string }) => {
      outcome ??= message.figures !== undefined ? { figures: message.figures } : { error: new Error(message.error ?? 'the bench worker answered nothing') }
    })
    worker.once('error', (error: Error & { code?: string }) => {
      outcome ??= { error: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new Error(`the ${request.kind} run of ${request.rollouts} rollouts outgrew its ${limitMb} MB heap`) : error }
    })
    worker.once('exit', (code) => {
      if (outcome === undefined) reject(new Error(`the bench worker exited (code ${code}) without figures`))
      else if ('figures' in outcome) resolve(outcome.figures)
      else reject(outcome.error)
    })
  })
}

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
  return new Promise<BenchRunFigures>((resolve, reject) => {
    let settled = false
    worker.once('message', (message: { readonly figures?: BenchRunFigures; readonly error?: string }) => {
      settled = true
      if (message.figures !== undefined) resolve(message.figures)
      else reject(new Error(message.error ?? 'the bench worker answered nothing'))
    })
    worker.once('error', (error: Error & { code?: string }) => {
      settled = true
      reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new Error(`the ${request.kind} run of ${request.rollouts} rollouts outgrew its ${limitMb} MB heap`) : error)
    })
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the bench worker exited (code ${code}) without figures`))
    })
  })
}

import { Worker } from 'node:worker_threads'
import type { WorkplaceData } from '@cutover/core'
import { simulationHeapLimitMb } from '../runs/simulationHeapLimitMb.ts'
import type { BenchRunRequest } from './measureSimulationRun.ts'
import type { BenchStepFigures, FromBenchWorker } from './benchSimulationWorker.ts'

const BOOTSTRAP = new URL('./benchSimulationWorkerBootstrap.js', import.meta.url)

/**
 * Runs bench requests one after the other in one worker thread with the heap budget the server
 * gives a run of their size (`simulationHeapLimitMb`), so `peak_rss_mb` is what such a run costs
 * the server's process. The bench gives each simulation a thread of its own, followed by a floor
 * run in that thread: a server runs each run in a fresh worker, and the budget is measured for one
 * run (two 10,000-rollout runs in one thread outgrew it). `started(i)` is called as request i
 * starts. Settles once the thread is gone; rejects when a request threw or outgrew its heap.
 */
export function runBenchSimulations(
  requests: readonly BenchRunRequest[],
  workplace: WorkplaceData,
  started: (index: number) => void = () => undefined,
): Promise<readonly BenchStepFigures[]> {
  const rollouts = Math.max(0, ...requests.map((r) => ('rollouts' in r ? r.rollouts : 0)))
  const limitMb = simulationHeapLimitMb(rollouts)
  const worker = new Worker(BOOTSTRAP, {
    workerData: { requests, workplace },
    resourceLimits: { maxOldGenerationSizeMb: limitMb },
  })
  return new Promise<readonly BenchStepFigures[]>((resolve, reject) => {
    let outcome:
      { readonly figures: readonly BenchStepFigures[] } | { readonly error: Error } | undefined
    worker.on('message', (message: FromBenchWorker) => {
      if ('started' in message) started(message.started)
      else
        outcome ??=
          'figures' in message ? { figures: message.figures } : { error: new Error(message.error) }
    })
    worker.once('error', (error: Error & { code?: string }) => {
      outcome ??= {
        error:
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new Error(`a bench run of ${rollouts} rollouts outgrew its ${limitMb} MB heap`)
            : error,
      }
    })
    worker.once('exit', (code) => {
      if (outcome === undefined)
        reject(new Error(`the bench worker exited (code ${code}) without figures`))
      else if ('figures' in outcome) resolve(outcome.figures)
      else reject(outcome.error)
    })
  })
}

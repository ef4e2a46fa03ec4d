import { Worker } from 'node:worker_threads'
import { simulationHeapLimitMb } from './simulationHeapLimitMb.ts'

/**
 * One simulation worker thread booted ahead of the run it will simulate: starting a worker
 * (a V8 isolate, tsx's loader, the core's modules) took 0.6–1.4 s of every run's time to end
 * (issue #28), paid now while the server waits instead.
 */
export interface SpareSimulationWorker {
  /**
   * The booted (or still booting) spare when its heap budget is `heapMb`, started without
   * `workerData` (send it a `start` message). Undefined when there is none (one starts now, for
   * the next run) or its budget differs: the caller starts a worker of its own.
   */
  take(heapMb: number): Worker | undefined
  /**
   * Starts a spare unless one is there: called once a simulation ended, so that a spare booting
   * never takes the CPU from a simulation (on a 2-core machine shared with others, booting one
   * beside a run slowed the run by about as much as the spare later saved).
   */
  refill(): void
}

/** The budget every spare is started with: that of runs up to ≈ 2,300 rollouts. */
const SPARE_HEAP_MB = simulationHeapLimitMb(0)

/**
 * Spares of `bootstrap`, one at a time, the first started by the first `take`, the next once the
 * run that took one ended (`refill`). An idle spare never keeps the process alive; one that died
 * idle (its modules failed to load, say) is never handed out.
 */
export function spareSimulationWorker(bootstrap: URL): SpareSimulationWorker {
  let spare: { readonly worker: Worker; readonly died: () => void } | undefined
  const startSpare = (): void => {
    const worker = new Worker(bootstrap, {
      resourceLimits: { maxOldGenerationSizeMb: SPARE_HEAP_MB },
    })
    const entry = {
      worker,
      died: () => {
        if (spare === entry) spare = undefined
      },
    }
    worker.on('error', entry.died)
    worker.on('exit', entry.died)
    worker.unref()
    spare = entry
  }
  return {
    take(heapMb) {
      const taken = spare
      if (taken === undefined) startSpare()
      if (taken === undefined || heapMb !== SPARE_HEAP_MB) return undefined
      spare = undefined
      taken.worker.off('error', taken.died)
      taken.worker.off('exit', taken.died)
      return taken.worker
    },
    refill() {
      if (spare === undefined) startSpare()
    },
  }
}

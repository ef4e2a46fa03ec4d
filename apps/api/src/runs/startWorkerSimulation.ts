import { Worker } from 'node:worker_threads'
import type { RunConfig, TraceEvent } from '@cutover/core/contracts'
import { simulationHeapLimitMb } from './simulationHeapLimitMb.ts'
import { spareSimulationWorker } from './SpareSimulationWorker.ts'
import type {
  FromSimulationWorker,
  SimulationSummary,
  SimulationWorkerData,
  StartSimulationWorker,
  ToSimulationWorker,
  ViewMethod,
} from './simulationWorkerProtocol.ts'

/**
 * How a simulation in a worker ended: its summary, and for a replay the first step that differs
 * from the stored trace.
 */
export interface WorkerOutcome {
  readonly summary: SimulationSummary
  readonly diverged_at?: number | undefined
}

/** One fresh simulation (or a replay of a finished one) running in its own worker thread. */
export interface WorkerSimulation {
  /** The summary once the simulation ended; rejects when it failed or the worker died. */
  readonly done: Promise<WorkerOutcome>
  /**
   * Asks the worker for a view of the run at its current edge (or of the finished run); `json`: its
   * JSON text.
   */
  query(method: ViewMethod, args: readonly unknown[], json?: boolean): Promise<unknown>
  /**
   * Ends the worker (cancellation, or dropping a finished run's views); safe to call more than
   * once. Resolves once the thread has stopped (no write of it can land after that).
   */
  terminate(): Promise<void>
}

/**
 * Starts simulations in worker threads: `start(config, runId, onEvents)`; `replay`: a finished
 * run's views, re-simulated in memory.
 */
export type SimulationWorkerFactory = (
  config: RunConfig,
  runId: string,
  onEvents: (events: readonly TraceEvent[]) => void,
  replay?: boolean,
) => WorkerSimulation

const BOOTSTRAP = new URL('./simulationWorkerBootstrap.js', import.meta.url)

/**
 * The factory over the file run store at `dataDir` (the worker writes the run's checkpoint
 * directories there).
 */
export function simulationWorkerFactory(
  dataDir: string,
  sliceMs?: number,
): SimulationWorkerFactory {
  const spares = spareSimulationWorker(BOOTSTRAP)
  return (config, runId, onEvents, replay) => {
    const simulation = startWorkerSimulation(
      {
        config,
        dataDir,
        runId,
        ...(sliceMs === undefined ? {} : { sliceMs }),
        ...(replay === true ? { replay } : {}),
      },
      onEvents,
      BOOTSTRAP,
      spares.take(simulationHeapLimitMb(config.rollouts)),
    )
    const refill = (): void => spares.refill()
    void simulation.done.then(refill, refill)
    return simulation
  }
}

/**
 * Starts one simulation in a worker thread (`spare`: one booted ahead by SpareSimulationWorker,
 * with the same heap budget). Events arrive in batches through `onEvents` before
 * `done` settles. A worker that fails, crashes or exits early rejects `done` (and every pending
 * query) with an Error; it never throws into the caller's thread.
 */
export function startWorkerSimulation(
  data: SimulationWorkerData,
  onEvents: (events: readonly TraceEvent[]) => void,
  bootstrap: URL = BOOTSTRAP,
  spare?: Worker,
): WorkerSimulation {
  const worker =
    spare ??
    new Worker(bootstrap, {
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: simulationHeapLimitMb(data.config.rollouts) },
    })
  if (spare !== undefined) {
    spare.ref()
    spare.postMessage({ type: 'start', data } satisfies StartSimulationWorker)
  }
  const pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >()
  let nextId = 0
  let ended: Error | undefined
  let settle:
    { resolve: (outcome: WorkerOutcome) => void; reject: (error: Error) => void } | undefined
  const done = new Promise<WorkerOutcome>((resolve, reject) => {
    settle = { resolve, reject }
  })
  // A rejection nobody awaited yet must not become an unhandled rejection of the server.
  done.catch(() => undefined)

  const end = (error: Error): void => {
    ended ??= error
    settle?.reject(error)
    settle = undefined
    for (const waiter of pending.values()) waiter.reject(error)
    pending.clear()
  }

  worker.on('message', (message: FromSimulationWorker) => {
    switch (message.type) {
      case 'events':
        onEvents(message.events)
        return
      case 'answer': {
        const waiter = pending.get(message.id)
        pending.delete(message.id)
        if (message.error === undefined) waiter?.resolve(message.value)
        else waiter?.reject(new Error(message.error))
        return
      }
      case 'done':
        // A finished worker only holds views: it must not keep the process alive (CLI commands
        // exit).
        worker.unref()
        settle?.resolve({ summary: message.summary, diverged_at: message.diverged_at })
        settle = undefined
        return
      case 'failed':
        end(new Error(message.message))
        return
    }
  })
  worker.on('error', (error) =>
    end(
      outOfMemory(error)
        ? new Error(
            `the simulation outgrew its ${simulationHeapLimitMb(data.config.rollouts)} MB heap (${data.config.rollouts} rollouts)`,
          )
        : error instanceof Error
          ? error
          : new Error(String(error)),
    ),
  )
  worker.on('exit', (code) => end(new Error(`the simulation worker exited (code ${code})`)))

  return {
    done,
    query(method, args, json) {
      if (ended !== undefined) return Promise.reject(ended)
      const id = (nextId += 1)
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject })
        worker.postMessage({
          type: 'query',
          id,
          method,
          args,
          ...(json === true ? { json } : {}),
        } satisfies ToSimulationWorker)
      })
    },
    terminate() {
      end(new Error('the simulation worker was stopped'))
      return worker.terminate().then(() => undefined)
    },
  }
}

/** Whether a worker died of its `resourceLimits` (Node's `ERR_WORKER_OUT_OF_MEMORY`). */
function outOfMemory(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY'
  )
}

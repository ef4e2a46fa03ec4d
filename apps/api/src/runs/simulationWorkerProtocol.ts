import type { SimulatedCheckpoint, SimulationResult } from '@cutover/core'
import type { RunConfig, TraceEvent } from '@cutover/core/contracts'

/** What a simulation worker is started with (`workerData`). */
export interface SimulationWorkerData {
  readonly config: RunConfig
  /**
   * The data directory of the run store, and the run whose checkpoint directories the worker
   * writes.
   */
  readonly dataDir: string
  readonly runId: string
  /** Simulation time per batch before the worker yields to its own event loop (answers queries). */
  readonly sliceMs?: number
  /**
   * Re-simulate a finished run for its views: into memory directories, streaming nothing and
   * writing nothing; the worker checks each event against the run's stored trace.json and reports
   * the first divergent step in `done`.
   */
  readonly replay?: boolean
}

/**
 * The views a running run answers through its worker (the sync methods of SimulationResult, and the
 * composed step and sessions views).
 */
export type ViewMethod =
  | 'participantsAt'
  | 'sessionsAt'
  | 'invariantsAt'
  | 'sessionDetail'
  | 'tables'
  | 'lineage'
  | 'stepView'
  | 'sessionsView'
  | 'sessionsWindow'
  | 'tablesView'
  | 'messageView'
  | 'timelineView'

/** Main thread → worker. */
export type ToSimulationWorker = {
  readonly type: 'query'
  readonly id: number
  readonly method: ViewMethod
  readonly args: readonly unknown[]
  /**
   * Answer the view's JSON text (encoded in the worker: one flat string crosses the thread
   * boundary).
   */
  readonly json?: boolean
}

/**
 * Main thread → a spare worker (started without `workerData`, its modules loaded ahead of time):
 * the simulation it runs. Always its first message; queries follow.
 */
export interface StartSimulationWorker {
  readonly type: 'start'
  readonly data: SimulationWorkerData
}

/** The plain data of a finished simulation (its events were streamed before). */
export type SimulationSummary = Pick<
  SimulationResult,
  'outcome' | 'invariants' | 'failures' | 'inert_faults'
> & { readonly checkpoints: readonly SimulatedCheckpoint[] }

/** Worker → main thread. */
export type FromSimulationWorker =
  | { readonly type: 'events'; readonly events: readonly TraceEvent[] }
  | {
      readonly type: 'answer'
      readonly id: number
      readonly value: unknown
      readonly error?: string
    }
  | { readonly type: 'done'; readonly summary: SimulationSummary; readonly diverged_at?: number }
  | { readonly type: 'failed'; readonly message: string }

import { parentPort, workerData } from 'node:worker_threads'
import type { WorkplaceData } from '@cutover/core'
import { forgetValidatedReads } from '@cutover/core'
import { measureFsFloor } from './measureFsFloor.ts'
import type { BenchRunFigures, BenchRunRequest } from './measureSimulationRun.ts'
import { measureSimulationRun } from './measureSimulationRun.ts'
import type { CheckpointLayout } from './SyncBatchRecorder.ts'

/** What a floor request gives: its wall time and whether it wrote the checkpoint's files. */
export interface FloorRunFigures {
  readonly kind: 'floor'
  readonly ms: number
  readonly files: number
  readonly bytes: number
  /** The floor left exactly the checkpoint's files: the same paths, each with the same size. */
  readonly sameFiles: boolean
}

/** One request's figures, in request order. */
export type BenchStepFigures = BenchRunFigures | FloorRunFigures

/**
 * Bench worker → main thread: a run starts, then every run's figures (or the error that stopped
 * them).
 */
export type FromBenchWorker =
  | { readonly started: number }
  | { readonly figures: readonly BenchStepFigures[] }
  | { readonly error: string }

// Bench requests in one worker thread (started by runBenchSimulations.ts), one after the other;
// each run's trace and result are dropped before the next starts. A floor request replays the
// checkpoint files of an earlier cycle request in this same thread, or a layout it is given.
const { requests, workplace } = workerData as {
  readonly requests: readonly BenchRunRequest[]
  readonly workplace: WorkplaceData
}
const post = (message: FromBenchWorker): void => parentPort?.postMessage(message)
try {
  const figures: BenchStepFigures[] = []
  const layouts = new Map<number, CheckpointLayout>()
  for (const [i, request] of requests.entries()) {
    post({ started: i })
    if (request.kind === 'floor') {
      const layout =
        request.layout ?? (request.of === undefined ? undefined : layouts.get(request.of))
      if (layout === undefined) throw new Error(`floor request ${i}: no checkpoint to replay`)
      const expected = layout.batches.flat()
      const floor = measureFsFloor(layout, request.tempRoot)
      const byPath = new Map(expected.map((f) => [f.path, f.bytes]))
      figures.push({
        kind: 'floor',
        ms: floor.ms,
        files: floor.written.length,
        bytes: floor.written.reduce((sum, f) => sum + f.bytes, 0),
        sameFiles:
          floor.written.length === expected.length &&
          floor.written.every((f) => byPath.get(f.path) === f.bytes),
      })
    } else {
      // Each run starts as a server's worker would: without the parses an earlier run kept.
      forgetValidatedReads()
      const run = measureSimulationRun(request, workplace)
      if (run.layout !== undefined) layouts.set(i, run.layout)
      figures.push(run)
    }
  }
  post({ figures })
} catch (error) {
  post({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) })
}

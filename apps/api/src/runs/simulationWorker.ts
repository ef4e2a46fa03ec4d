// The entry of a simulation worker thread (started by startWorkerSimulation through
// simulationWorkerBootstrap.js): runs one fresh simulation into the run's real checkpoint
// directories (or, replaying a finished run for its views, into memory, checked against its
// trace.json), writes its trace.json, streams its events in batches, answers view queries at its
// current edge, and stays alive after the end answering queries on the finished result until the
// main thread terminates it. A spare worker loads all this ahead of time and waits for the run it
// simulates.
import { setPriority } from 'node:os'
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads'
import type { SimulationResult } from '@cutover/core'
import { NodeCheckpointDirectory, loadNodeWorkplaceData, nodeDigest } from '@cutover/core/adapters'
import type { TraceEvent } from '@cutover/core/contracts'
import { MemoryCheckpointDirectory } from '@cutover/core/testing'
import { firstDifference } from './firstDifference.ts'
import { createFileRunStore } from '../store/FileRunStore.ts'
import { createCoreSimulator } from './coreSimulator.ts'
import { driveSimulation } from './driveSimulation.ts'
import { answerView } from './RunViews.ts'
import { traceJson } from './traceJson.ts'
import type {
  FromSimulationWorker,
  SimulationWorkerData,
  StartSimulationWorker,
  ToSimulationWorker,
} from './simulationWorkerProtocol.ts'

const port = parentPort
if (port === null) throw new Error('simulationWorker.ts runs only as a worker thread')

/**
 * A simulation is background work: on Linux the nice value is per thread, so this thread alone
 * yields the CPU to the server's event loop (the API answers first on a busy 2-core machine) and
 * simulates at full speed when the CPU is otherwise free. Elsewhere setpriority would nice the
 * whole server process, so it is left alone.
 */
const SIMULATION_NICE = 5
if (process.platform === 'linux') {
  try {
    setPriority(SIMULATION_NICE)
  } catch {
    // not permitted: the thread simulates at the server's priority
  }
}
const post = (message: FromSimulationWorker): void => port.postMessage(message)

let current: SimulationResult | undefined
/**
 * Queries that arrived before the simulation's first views existed; answered as soon as they do.
 */
let early: ToSimulationWorker[] = []
const answer = (message: ToSimulationWorker): void => {
  if (current === undefined) {
    early.push(message)
    return
  }
  try {
    post({
      type: 'answer',
      id: message.id,
      value: answerView(current, message.method, message.args, message.json),
    })
  } catch (error) {
    post({
      type: 'answer',
      id: message.id,
      value: undefined,
      error: error instanceof Error ? error.message : String(error),
    })
  }
}
/**
 * A worker started with its `workerData` simulates at once; a spare one (SpareSimulationWorker,
 * started before any run asked for it) waits for its `start` message. One listener takes both, so
 * no query can arrive between two listeners.
 */
let started: ((data: SimulationWorkerData) => void) | undefined
const data = await new Promise<SimulationWorkerData>((resolve) => {
  const given = workerData as SimulationWorkerData | undefined
  if (given !== undefined) resolve(given)
  else started = resolve
  port.on('message', (message: ToSimulationWorker | StartSimulationWorker) => {
    if (message.type === 'start') started?.(message.data)
    else answer(message)
  })
})
started = undefined
const setCurrent = (result: SimulationResult): void => {
  current = result
  const waiting = early
  early = []
  for (const message of waiting) answer(message)
}

try {
  const store = createFileRunStore(
    data.dataDir,
    (path, create) => new NodeCheckpointDirectory(path, { create }),
  )
  const simulator = createCoreSimulator(loadNodeWorkplaceData())
  const replay = data.replay === true
  const stored = replay ? store.readTrace(data.runId) : undefined
  if (replay && stored === undefined)
    throw new Error(`run ${data.runId} has no readable trace.json`)
  const openDirectory = replay
    ? (checkpointId: string) =>
        new MemoryCheckpointDirectory({ location: `memory:${checkpointId}` })
    : (checkpointId: string) => store.openCheckpoint(data.runId, checkpointId)
  const generator = simulator.simulate(
    data.config,
    { digest: nodeDigest, openDirectory },
    { live: setCurrent },
  )
  let batch: TraceEvent[] = []
  const result = await driveSimulation(
    generator,
    (event) => batch.push(event),
    {
      // A replay streams its events too: the main thread takes them a batch per message instead of
      // parsing the whole trace.json at once (≈ 100 MB at 10,000 rollouts). The last event stays
      // behind until the next batch: the live views answer through the step before the last one
      // yielded (that step's records are final only once the next one starts), so the main thread
      // must never see an edge the worker's views cannot answer yet — a request for the streamed
      // edge would otherwise get the rows of the step before it.
      onBatch: () => {
        if (batch.length < 2) return
        post({ type: 'events', events: batch.slice(0, -1) })
        batch = batch.slice(-1)
      },
      cancelled: () => false,
      // Queries are answered between two steps, not only when a slice yields: a view waits for at
      // most the step in progress.
      between: () => {
        for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port))
          answer(m.message as ToSimulationWorker)
      },
    },
    data.sliceMs,
  )
  if (result === undefined) throw new Error('the simulation stopped without a result')
  setCurrent(result)
  if (batch.length > 0) post({ type: 'events', events: batch })
  batch = []
  const { outcome, invariants, failures, checkpoints, inert_faults } = result
  const summary = { outcome, invariants, failures, checkpoints, inert_faults }
  if (stored !== undefined) {
    const diverged = firstDifference(stored, result.events)
    post({ type: 'done', summary, ...(diverged === undefined ? {} : { diverged_at: diverged }) })
  } else {
    // The trace lands before the main thread writes run.json as complete (a complete run always has
    // its trace).
    store.writeTrace(data.runId, await traceJson(result.events))
    post({ type: 'done', summary })
  }
} catch (error) {
  post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
}

// Longer than ~400 lines on purpose: a run's lifecycle (slot, fresh simulation in its worker,
// streamed events, persistence, reload, re-simulation with divergence check, views, delete) shares
// one run table and its cache; the pieces with their own concept live beside it (RunSlots,
// RunViews, runLimits, startWorkerSimulation, replayInWorker, traceJson).
import type { CheckpointDirectory, Clock, Digest, Result, SimulationResult } from '@cutover/core'
import { err, ok } from '@cutover/core'
import type {
  CutoverError,
  InvariantMap,
  RunConfig,
  RunView,
  TraceEvent,
} from '@cutover/core/contracts'
import { INVARIANT_IDS, cutoverError } from '@cutover/core/contracts'
import { fleetTraceResult } from '../fleet/fleetTraceResult.ts'
import { hideLocalPaths } from '../http/hideLocalPaths.ts'
import { processAlive } from '../participants/processAlive.ts'
import type { RunStore } from '../store/RunStore.ts'
import { driveSimulation } from './driveSimulation.ts'
import { firstDifference } from './firstDifference.ts'
import { replayInWorker, storedRunConfig } from './replayInWorker.ts'
import { traceJson } from './traceJson.ts'
import type { RunIdSource } from './runIds.ts'
import { createRunIdSource } from './runIds.ts'
import type { RunLimits } from './runLimits.ts'
import { defaultRunLimits } from './runLimits.ts'
import type { RunSlots, SlotTicket } from './RunSlots.ts'
import { createRunSlots } from './RunSlots.ts'
import type { SimulatorPort } from './SimulatorPort.ts'
import type { RunViews } from './RunViews.ts'
import { answerView, resultViews, runViews } from './RunViews.ts'
import type { ViewMethod } from './simulationWorkerProtocol.ts'
import type { ReadTrace } from './readTraceInWorker.ts'
import type { SimulationWorkerFactory, WorkerSimulation } from './startWorkerSimulation.ts'
import { createRecordedRuns } from './recordedRuns.ts'

/** What the run manager needs from the edge. */
export interface RunManagerDeps {
  readonly store: RunStore
  readonly digest: Digest
  /** Wall-clock milliseconds: only for `created_at` and run ids, never inside a trace. */
  readonly clock: Clock
  readonly simulator: SimulatorPort
  /**
   * A fresh in-memory directory: reloading a finished run re-simulates into these, never onto disk.
   */
  readonly memoryDirectory: (checkpointId: string) => CheckpointDirectory
  readonly log?: (line: string) => void
  /** Simulation time per batch before yielding to the event loop. */
  readonly sliceMs?: number
  readonly ids?: RunIdSource
  /** Finished simulations kept in memory; older ones are re-simulated on demand (default 16). */
  readonly cachedResults?: number
  /** Simulations at once, queue, stored runs (default `defaultRunLimits()`). */
  readonly limits?: RunLimits
  /**
   * When set, fresh runs simulate in worker threads (the server's event loop never runs a simulator
   * step); re-simulations of stored runs still run here, in slices.
   */
  readonly simulationWorkers?: SimulationWorkerFactory
  /** When set, a finished run's trace.json is read and parsed off this thread (`loadEvents`). */
  readonly readTrace?: ReadTrace
  /**
   * How often a recorded run whose recorder still records is read for new exchanges (default 250
   * ms; 0: only when asked, for tests).
   */
  readonly recordingPollMs?: number
  /** Whether a recorder's process is alive (default: signal 0). */
  readonly processAlive?: (pid: number) => boolean
}

/** One run in memory. Plain data plus the listeners of its live event stream. */
interface RunEntry {
  view: RunView
  /** Events produced so far (running) or read back from trace.json (loaded lazily). */
  events: TraceEvent[] | undefined
  /** The finished simulation (fresh) or its deterministic re-run (reloaded), once known. */
  result: Promise<Result<SimulationResult, CutoverError>> | undefined
  cancelled: boolean
  readonly listeners: Set<() => void>
  /** The simulation slot of a fresh run, while it waits for it or simulates. */
  slot?: SlotTicket | undefined
  /** While a fresh run simulates: its views so far (up to its current edge). */
  live?: SimulationResult | undefined
  /** The worker thread simulating this fresh run, then holding its finished views until evicted. */
  worker?: WorkerSimulation | undefined
  /** A fresh run simulating in a worker: settles when it finished, failed or was deleted. */
  simulating?: Promise<void> | undefined
  /** A finished run without a worker being re-simulated in one for its views (worker mode only). */
  replaying?: Promise<Result<WorkerSimulation, CutoverError>> | undefined
  /** A finished run's trace.json being read off this thread (`loadEvents`). */
  loading?: Promise<void> | undefined
}

/** The runs the API serves: created, simulated in the background, persisted, reloaded. */
export interface RunManager {
  /** Reads the data directory. Runs left `running` by a dead server become `failed`. */
  load(): void
  /** Newest first. */
  list(): readonly RunView[]
  get(id: string): RunView | undefined
  /**
   * Creates a run and starts simulating it in the background (or queues it for a simulation slot);
   * returns its `running` view. Refused, creating nothing, with `data_dir_full` when the data
   * directory holds its limit of runs and `too_many_runs` when every slot is busy and the queue
   * full.
   */
  create(config: RunConfig, options?: { readonly parent?: string }): Result<RunView, CutoverError>
  /** Stops (if running) and deletes a run and its folder; false when unknown. */
  remove(id: string): boolean
  /** The events so far (running) or the whole trace (complete); undefined for an unknown run. */
  events(id: string): readonly TraceEvent[] | undefined
  /**
   * Makes a finished run's events held (`events` then answers without reading trace.json on this
   * thread): read off the thread when the deps can, in this thread otherwise.
   */
  loadEvents(id: string): Promise<void>
  /**
   * The views of a run still simulating, up to its current edge; undefined once it finished (or
   * before it started).
   */
  live(id: string): SimulationResult | undefined
  /**
   * The views of a run: a running one up to its current edge (without waiting for its end), a
   * finished one from its simulation (waiting for a queued run; re-simulating an evicted one).
   */
  views(id: string): Promise<Result<RunViews, CutoverError>>
  /**
   * The views of a run once it finished (waits for a running one; re-simulates an evicted or
   * reloaded one).
   */
  settledViews(id: string): Promise<Result<RunViews, CutoverError>>
  /** The simulation result (waits for a running run; re-simulates a reloaded one). */
  result(id: string): Promise<Result<SimulationResult, CutoverError>>
  /** Called after every batch of new events and on every status change; returns unsubscribe. */
  subscribe(id: string, listener: () => void): () => void
  /** Resolves once no run is running (tests, shutdown). */
  idle(): Promise<void>
  /** Reads every recording still being recorded (what the recordings' poll does; for tests). */
  refreshRecordings(): void
  /** Stops following recordings (shutdown). */
  close(): void
  /** The simulation slots every simulation (fresh or re-run) takes its turn in. */
  readonly slots: RunSlots
  readonly limits: RunLimits
}

/** 409 `run_damaged`: a stored run whose run.json failed its digest, with why. */
export function damagedError(view: RunView): CutoverError {
  return cutoverError('run_damaged', `run ${view.id} is damaged: ${view.error ?? 'run.json'}`)
}

/** 409 `run_not_started`: the run waits for its simulation slot (its place when queued). */
function notStarted(entry: RunEntry): CutoverError {
  const position = entry.slot?.position() ?? 0
  return cutoverError(
    'run_not_started',
    position > 0
      ? `run ${entry.view.id} is queued for a simulation slot (position ${position}); its views exist once it starts`
      : `run ${entry.view.id} has not started simulating yet; its views exist once it starts`,
  )
}

const allPass = (): InvariantMap =>
  Object.fromEntries(INVARIANT_IDS.map((id) => [id, 'pass'])) as InvariantMap

/** Builds the run manager over a store. Call `load()` once before serving. */
export function createRunManager(deps: RunManagerDeps): RunManager {
  const runs = new Map<string, RunEntry>()
  const ids = deps.ids ?? createRunIdSource()
  const running = new Set<Promise<unknown>>()
  const log = deps.log ?? (() => undefined)
  const cacheLimit = deps.cachedResults ?? 16
  const limits = deps.limits ?? defaultRunLimits()
  const slots = createRunSlots(limits.simulations, limits.queued)
  // Runs of kind `recorded` (docs/recording.md): their trace is their recording, followed live.
  const recordings = createRecordedRuns({
    store: deps.store,
    alive: deps.processAlive ?? processAlive,
    now: () => deps.clock.now(),
    log,
    ...(deps.recordingPollMs === undefined ? {} : { pollMs: deps.recordingPollMs }),
  })
  /** The view a client sees: a queued run says where it stands. */
  const shown = (entry: RunEntry): RunView => {
    const position = entry.slot?.position() ?? 0
    return position > 0 ? { ...entry.view, queue_position: position } : entry.view
  }
  /** Complete runs whose result is held, least recently used first. */
  const cached: string[] = []

  /**
   * Marks a complete run's result as used; drops the oldest beyond the limit (they re-simulate
   * later).
   */
  const touch = (id: string): void => {
    const at = cached.indexOf(id)
    if (at >= 0) cached.splice(at, 1)
    cached.push(id)
    while (cached.length > cacheLimit) {
      const evicted = runs.get(cached.shift() ?? '')
      if (evicted !== undefined && evicted.view.status === 'complete') {
        evicted.result = undefined
        evicted.events = undefined
        void evicted.worker?.terminate()
        evicted.worker = undefined
        evicted.replaying = undefined
      }
    }
  }

  const notify = (entry: RunEntry): void => {
    for (const listener of [...entry.listeners]) listener()
  }

  const finishView = (
    entry: RunEntry,
    result: Pick<
      SimulationResult,
      'outcome' | 'checkpoints' | 'invariants' | 'failures' | 'inert_faults'
    >,
    events: number,
  ): RunView => ({
    ...entry.view,
    status: 'complete',
    events,
    outcome: result.outcome,
    checkpoints: result.checkpoints
      .filter((c) => !c.damaged)
      .map((c) => deps.store.relativePath(c.location)),
    damaged: result.checkpoints
      .filter((c) => c.damaged)
      .map((c) => deps.store.relativePath(c.location)),
    invariants: result.invariants,
    failures: result.failures,
    inert_faults: result.inert_faults,
  })

  const fail = (entry: RunEntry, message: string): void => {
    entry.view = { ...entry.view, status: 'failed', error: message }
    deps.store.writeRun(entry.view)
  }

  async function simulateFresh(
    entry: RunEntry,
    config: RunConfig,
    slot: SlotTicket,
  ): Promise<Result<SimulationResult, CutoverError>> {
    const runId = entry.view.id
    const events: TraceEvent[] = []
    entry.events = events
    try {
      await slot.granted
      if (entry.cancelled) return err(cutoverError('run_not_found', `run ${runId} was deleted`))
      notify(entry) // no longer queued
      const generator = deps.simulator.simulate(
        config,
        { digest: deps.digest, openDirectory: (cid) => deps.store.openCheckpoint(runId, cid) },
        { live: (live) => (entry.live = live) },
      )
      const result = await driveSimulation(
        generator,
        (event) => events.push(event),
        {
          onBatch: () => {
            entry.view = { ...entry.view, events: events.length }
            notify(entry)
          },
          cancelled: () => entry.cancelled,
        },
        deps.sliceMs,
      )
      if (result === undefined)
        return err(cutoverError('run_not_found', `run ${runId} was deleted`))
      // The trace lands before run.json says complete, so a complete run always has its trace.
      deps.store.writeTrace(runId, await traceJson(result.events))
      entry.events = [...result.events]
      entry.live = undefined
      entry.view = finishView(entry, result, result.events.length)
      deps.store.writeRun(entry.view)
      touch(runId)
      notify(entry)
      return ok(result)
    } catch (error) {
      const message = `simulation failed: ${error instanceof Error ? error.message : String(error)}`
      log(`run ${runId}: ${message}`)
      const shownMessage = hideLocalPaths(message, deps.store.root)
      if (!entry.cancelled) {
        fail(entry, shownMessage)
        notify(entry)
      }
      return err(cutoverError('internal_error', shownMessage))
    } finally {
      entry.live = undefined
      slot.release()
      entry.slot = undefined
    }
  }

  /**
   * A fresh run in a worker thread: events stream into `entry.events`; at the end the worker writes
   * trace.json and this thread run.json, as for an in-thread run, and the worker stays alive
   * holding the finished views until the run is evicted from the result cache. The SimulationResult
   * itself (`result()`) is re-simulated here on demand, checked event by event against the trace.
   */
  async function simulateInWorker(
    entry: RunEntry,
    config: RunConfig,
    slot: SlotTicket,
    start: SimulationWorkerFactory,
  ): Promise<void> {
    const runId = entry.view.id
    const events: TraceEvent[] = []
    entry.events = events
    try {
      await slot.granted
      if (entry.cancelled) return
      notify(entry) // no longer queued
      const worker = start(config, runId, (batch) => {
        for (const event of batch) events.push(event)
        entry.view = { ...entry.view, events: events.length }
        notify(entry)
      })
      entry.worker = worker
      // The worker wrote trace.json before reporting done, so a complete run always has its trace.
      const { summary } = await worker.done
      if (entry.cancelled) return
      entry.view = finishView(entry, summary, events.length)
      deps.store.writeRun(entry.view)
      touch(runId)
      notify(entry)
    } catch (error) {
      void entry.worker?.terminate()
      entry.worker = undefined
      if (entry.cancelled) return
      const message = `simulation failed: ${error instanceof Error ? error.message : String(error)}`
      log(`run ${runId}: ${message}`)
      fail(entry, hideLocalPaths(message, deps.store.root))
      notify(entry)
    } finally {
      slot.release()
      entry.slot = undefined
    }
  }

  /**
   * Re-runs a finished run's config into memory; same seed ⇒ same trace, checked event by event.
   */
  async function resimulate(entry: RunEntry): Promise<Result<SimulationResult, CutoverError>> {
    const stored = readEvents(entry)
    if (stored === undefined)
      return err(cutoverError('internal_error', `run ${entry.view.id} has no readable trace.json`))
    const config = storedRunConfig(entry.view)
    const slot = slots.wait()
    try {
      await slot.granted
      if (entry.cancelled)
        return err(cutoverError('run_not_found', `run ${entry.view.id} was deleted`))
      const generator = deps.simulator.simulate(config, {
        digest: deps.digest,
        openDirectory: deps.memoryDirectory,
      })
      const result = await driveSimulation(
        generator,
        () => undefined,
        { onBatch: () => undefined, cancelled: () => entry.cancelled },
        deps.sliceMs,
      )
      if (result === undefined)
        return err(cutoverError('run_not_found', `run ${entry.view.id} was deleted`))
      const mismatch = firstDifference(stored, result.events)
      if (mismatch !== undefined) {
        return err(
          cutoverError(
            'run_diverged',
            `re-simulating run ${entry.view.id} diverged from its stored trace at step ${mismatch}: it was stored by another build; re-run it with this one`,
          ),
        )
      }
      return ok(result)
    } catch (error) {
      const message = `re-simulating run ${entry.view.id} failed: ${error instanceof Error ? error.message : String(error)}`
      log(message)
      return err(cutoverError('internal_error', hideLocalPaths(message, deps.store.root)))
    } finally {
      slot.release()
    }
  }

  /**
   * A run recorded from processes (`cutover fleet`) is never re-simulated: its views come from its
   * trace.
   */
  async function recorded(entry: RunEntry): Promise<Result<SimulationResult, CutoverError>> {
    const events = readEvents(entry)
    if (events === undefined)
      return err(cutoverError('internal_error', `run ${entry.view.id} has no readable trace.json`))
    return ok(fleetTraceResult(entry.view, events))
  }

  /**
   * Runs another process stored since `load()` (`cutover fleet` writes complete fleet runs into the
   * same data directory): adopted at most once a second, when the list is read or an unknown id
   * asked for.
   */
  let scannedAt = Number.NEGATIVE_INFINITY
  const adoptStored = (): void => {
    const now = deps.clock.now()
    if (now - scannedAt < 1000) return
    scannedAt = now
    for (const view of deps.store.listRuns().runs) {
      if (view.kind === 'recorded') {
        recordings.adopt(view)
        continue
      }
      if (
        runs.has(view.id) ||
        view.kind !== 'fleet' ||
        view.status !== 'complete' ||
        !deps.store.hasTrace(view.id)
      )
        continue
      runs.set(view.id, {
        view,
        events: undefined,
        result: undefined,
        cancelled: false,
        listeners: new Set(),
      })
    }
  }

  /** `replayInWorker` for an entry: its worker and events kept, a failure logged and coded. */
  async function replay(
    entry: RunEntry,
    start: SimulationWorkerFactory,
  ): Promise<Result<WorkerSimulation, CutoverError>> {
    try {
      const replayed = await replayInWorker(entry.view, start, slots, () => entry.cancelled)
      if (!replayed.ok) return replayed
      entry.events ??= replayed.value.events
      entry.worker = replayed.value.worker
      return ok(replayed.value.worker)
    } catch (error) {
      const message = `re-simulating run ${entry.view.id} failed: ${error instanceof Error ? error.message : String(error)}`
      log(message)
      return err(cutoverError('internal_error', hideLocalPaths(message, deps.store.root)))
    }
  }

  /**
   * `loadEvents` of one entry: a finished run's trace.json read off this thread once (a failure
   * falls back to `readEvents`).
   */
  async function loadEventsOf(entry: RunEntry): Promise<void> {
    const read = deps.readTrace
    if (entry.events !== undefined || entry.view.status !== 'complete' || read === undefined) return
    const id = entry.view.id
    entry.loading ??= read(id).then(
      (events) => {
        entry.events ??= events
      },
      (error: unknown) =>
        log(
          `run ${id}: reading trace.json off the thread failed (${error instanceof Error ? error.message : String(error)}); read in the thread`,
        ),
    )
    await entry.loading
    entry.loading = undefined
  }

  function readEvents(entry: RunEntry): TraceEvent[] | undefined {
    if (entry.events === undefined && entry.view.status === 'complete') {
      const trace = deps.store.readTrace(entry.view.id)
      if (trace !== undefined) entry.events = [...trace]
    }
    return entry.events
  }

  async function resultOf(id: string): Promise<Result<SimulationResult, CutoverError>> {
    if (recordings.has(id))
      return err(
        cutoverError(
          'invalid_phase',
          `run ${id} was recorded from a real controller: no simulation`,
        ),
      )
    const entry = runs.get(id)
    if (entry === undefined) return err(cutoverError('run_not_found', `no run ${id}`))
    if (entry.view.status === 'damaged') return err(damagedError(entry.view))
    await entry.simulating
    if (entry.cancelled) return err(cutoverError('run_not_found', `run ${id} was deleted`))
    if (entry.view.status === 'failed' && entry.result === undefined) {
      return err(
        cutoverError('invalid_phase', `run ${id} failed: ${entry.view.error ?? 'unknown error'}`),
      )
    }
    entry.result ??= track(entry.view.kind === 'fleet' ? recorded(entry) : resimulate(entry))
    const result = await entry.result
    if (entry.view.status === 'complete' && result.ok) touch(id)
    if (!result.ok && entry.view.status === 'failed')
      return err(
        cutoverError(
          'invalid_phase',
          `run ${id} failed: ${entry.view.error ?? result.error.message}`,
        ),
      )
    return result
  }

  const track = <T>(promise: Promise<T>): Promise<T> => {
    running.add(promise)
    void promise.finally(() => running.delete(promise))
    return promise
  }

  return {
    load() {
      const { runs: stored, unreadable, damaged } = deps.store.listRuns()
      for (const problem of unreadable)
        log(`skipping run folder ${problem.folder}: ${problem.reason}`)
      // Listed, with why, and never served as if whole (views answer 409 run_damaged).
      for (const { folder, view } of damaged) {
        log(`run ${folder} is damaged: ${view.error ?? ''}`)
        runs.set(view.id, {
          view,
          events: undefined,
          result: undefined,
          cancelled: false,
          listeners: new Set(),
        })
      }
      for (const storedView of stored) {
        if (storedView.kind === 'recorded') {
          recordings.adopt(storedView)
          continue
        }
        // Runs stored before paths were relative name their checkpoint directories absolutely.
        const view = {
          ...storedView,
          checkpoints: storedView.checkpoints.map(deps.store.relativePath),
          damaged: storedView.damaged.map(deps.store.relativePath),
        }
        const entry: RunEntry = {
          view,
          events: undefined,
          result: undefined,
          cancelled: false,
          listeners: new Set(),
        }
        if (view.status === 'running') fail(entry, 'the server stopped before this run completed')
        else if (view.status === 'complete' && !deps.store.hasTrace(view.id))
          fail(entry, 'trace.json is missing')
        runs.set(view.id, entry)
      }
    },
    list() {
      adoptStored()
      return [...runs.values()]
        .map(shown)
        .concat(recordings.list())
        .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    },
    get(id) {
      if (!runs.has(id) && !recordings.has(id)) adoptStored()
      if (recordings.has(id)) return recordings.get(id)
      const entry = runs.get(id)
      return entry === undefined ? undefined : shown(entry)
    },
    create(config, options = {}) {
      if (runs.size + recordings.size >= limits.runs) {
        return err(
          cutoverError(
            'data_dir_full',
            `the data directory holds ${runs.size + recordings.size} runs, its limit (CUTOVER_MAX_RUNS=${limits.runs}); delete runs to make room`,
          ),
        )
      }
      const slot = slots.reserve()
      if (slot === undefined) {
        return err(
          cutoverError(
            'too_many_runs',
            `${slots.running()} runs are simulating and ${slots.queued()} waiting, the limits (CUTOVER_MAX_SIMULATIONS=${limits.simulations}, CUTOVER_MAX_QUEUED_RUNS=${limits.queued}); try again when one finishes`,
          ),
        )
      }
      const now = deps.clock.now()
      const id = ids.next(now, (candidate) => runs.has(candidate))
      const view: RunView = {
        id,
        kind: 'simulated',
        scenario: config.scenario,
        seed: config.seed,
        rollouts: config.rollouts,
        deadline_ms: config.deadline_ms,
        faults: config.faults,
        ...(config.bug === undefined ? {} : { bug: config.bug }),
        ...(config.cut_mode === undefined ? {} : { cut_mode: config.cut_mode }),
        inert_faults: [],
        status: 'running',
        created_at: new Date(now).toISOString(),
        events: 0,
        outcome: null,
        checkpoints: [],
        damaged: [],
        invariants: allPass(),
        failures: [],
        ...(options.parent === undefined ? {} : { parent: options.parent }),
      }
      try {
        deps.store.writeRun(view)
      } catch (error) {
        slot.release()
        throw error
      }
      const entry: RunEntry = {
        view,
        events: [],
        result: undefined,
        cancelled: false,
        listeners: new Set(),
        slot,
      }
      runs.set(id, entry)
      if (deps.simulationWorkers === undefined)
        entry.result = track(simulateFresh(entry, config, slot))
      else entry.simulating = track(simulateInWorker(entry, config, slot, deps.simulationWorkers))
      return ok(shown(entry))
    },
    remove(id) {
      if (recordings.remove(id)) return true
      const entry = runs.get(id)
      if (entry === undefined) return false
      entry.cancelled = true
      entry.slot?.release()
      // A worker stops at its next instruction, but a file write it had begun still lands (and may
      // recreate the run's folder): remove the folder again once the thread has stopped.
      const stopping = entry.worker?.terminate()
      if (stopping !== undefined)
        void stopping.then(
          () => deps.store.removeRun(id),
          () => undefined,
        )
      entry.worker = undefined
      runs.delete(id)
      const at = cached.indexOf(id)
      if (at >= 0) cached.splice(at, 1)
      deps.store.removeRun(id)
      notify(entry)
      return true
    },
    events(id) {
      if (recordings.has(id)) return recordings.events(id)
      const entry = runs.get(id)
      return entry === undefined ? undefined : (readEvents(entry) ?? [])
    },
    async loadEvents(id) {
      const entry = runs.get(id)
      if (entry !== undefined) await loadEventsOf(entry)
    },
    live(id) {
      const entry = runs.get(id)
      return entry?.view.status === 'running' ? entry.live : undefined
    },
    async views(id) {
      const traced = recordings.views(id)
      if (traced !== undefined) return ok(resultViews(traced))
      const entry = runs.get(id)
      if (entry === undefined) return err(cutoverError('run_not_found', `no run ${id}`))
      if (entry.view.status === 'damaged') return err(damagedError(entry.view))
      if (entry.view.status === 'running' && entry.live !== undefined)
        return ok(resultViews(entry.live))
      // A fresh run that has not begun simulating (queued for a slot, or just granted one): its
      // views do not exist yet, and a view never waits for the slot (issue #29). Its events and
      // its run view answer meanwhile.
      if (entry.view.status === 'running' && entry.worker === undefined)
        return err(notStarted(entry))
      // A fleet run (recorded from processes) is never re-simulated: its views come from its trace,
      // in this thread.
      if (
        entry.worker === undefined &&
        entry.result === undefined &&
        entry.view.status === 'complete' &&
        entry.view.kind !== 'fleet' &&
        deps.simulationWorkers !== undefined
      ) {
        entry.replaying ??= track(replay(entry, deps.simulationWorkers))
        const replayed = await entry.replaying
        if (!replayed.ok) {
          entry.replaying = undefined
          return replayed
        }
        if (entry.cancelled) return err(cutoverError('run_not_found', `run ${id} was deleted`))
        entry.worker ??= replayed.value
      }
      const worker = entry.worker
      await loadEventsOf(entry)
      const events = readEvents(entry)
      if (worker !== undefined && events !== undefined && entry.view.status !== 'failed') {
        if (entry.view.status === 'complete') touch(id)
        // A snapshot: the step bounds of this request stay fixed while more events stream in.
        const ask = (
          method: ViewMethod,
          args: readonly unknown[],
          json?: boolean,
        ): Promise<unknown> =>
          worker.query(method, args, json).catch(async (error: unknown) => {
            // The worker left the result cache (or died) during this request: answer from an
            // in-thread re-simulation.
            if (entry.view.status !== 'complete') throw error
            const result = await resultOf(id)
            if (!result.ok) throw error
            return answerView(result.value, method, args, json)
          })
        return ok(runViews(entry.view.status === 'running' ? events.slice() : events, ask))
      }
      const result = await resultOf(id)
      return result.ok ? ok(resultViews(result.value)) : result
    },
    async settledViews(id) {
      // A recording may go on for hours: its views are those of what it holds so far.
      if (recordings.has(id)) return this.views(id)
      const entry = runs.get(id)
      if (entry === undefined) return err(cutoverError('run_not_found', `no run ${id}`))
      if (entry.view.status === 'damaged') return err(damagedError(entry.view))
      await entry.simulating
      if (entry.view.status === 'running') {
        const finished = await resultOf(id)
        if (!finished.ok) return finished
      }
      return this.views(id)
    },
    result: resultOf,
    subscribe(id, listener) {
      if (recordings.has(id)) return recordings.subscribe(id, listener)
      const entry = runs.get(id)
      if (entry === undefined) return () => undefined
      entry.listeners.add(listener)
      return () => entry.listeners.delete(listener)
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running])
    },
    refreshRecordings: () => recordings.refresh(),
    close: () => recordings.close(),
    slots,
    limits,
  }
}

import { Hono } from 'hono'
import type {
  CheckpointDirectory,
  Clock,
  Digest,
  EnvName,
  ResourcesParticipant,
} from '@cutover/core'
import { ENV_NAMES } from '@cutover/core'
import { API_BODY_LIMIT, limitBody } from './http/bodyLimits.ts'
import { errorResponse } from './http/errorResponse.ts'
import { refuseCrossSite } from './http/refuseCrossSite.ts'
import { scrubErrorPaths } from './http/scrubErrorPaths.ts'
import { securityHeaders } from './http/securityHeaders.ts'
import { createGymSubApp } from './gym/mountGym.ts'
import { createDirectoryRuns } from './directories/createDirectoryRuns.ts'
import { checkpointsRoutes } from './routes/checkpointsRoutes.ts'
import { diffRoutes } from './routes/diffRoutes.ts'
import { directoriesRoutes } from './routes/directoriesRoutes.ts'
import { runViewRoutes } from './routes/runViewRoutes.ts'
import { runsRoutes } from './routes/runsRoutes.ts'
import type { RunManager } from './runs/RunManager.ts'
import { createRunManager } from './runs/RunManager.ts'
import type { RunLimits } from './runs/runLimits.ts'
import type { SimulatorPort } from './runs/SimulatorPort.ts'
import type { RunStore } from './store/RunStore.ts'
import type { SimulationWorkerFactory } from './runs/startWorkerSimulation.ts'
import type { ReadTrace } from './runs/readTraceInWorker.ts'
import type {
  InspectDirectoryFolder,
  VerifyCheckpointFolder,
} from './checkpoints/startVerificationWorker.ts'

/** The ports the HTTP app runs on; tests pass temp-dir stores and fixed clocks. */
export interface AppDeps {
  /** The data directory (runs and their checkpoint directories). */
  readonly store: RunStore
  readonly digest: Digest
  /** Wall-clock ms for `created_at` and run ids. */
  readonly clock: Clock
  readonly simulator: SimulatorPort
  /** In-memory directories for re-simulating a reloaded run. */
  readonly memoryDirectory: (checkpointId: string) => CheckpointDirectory
  /** The resources participant of each Gym-compatible environment, mounted at `/gym/<env>`. */
  readonly gym: { readonly [K in EnvName]?: ResourcesParticipant<unknown> }
  /** Opens a real checkpoint directory (control-route commit/restore). */
  readonly openDirectory: (path: string, create: boolean) => CheckpointDirectory
  /** Mints Gym session ids (uuid). */
  readonly newSessionId: () => string
  /** `CUTOVER_CONTROL_TOKEN`; without it no control route is mounted. */
  readonly controlToken?: string
  /** Where the Gym control routes accept a `checkpoint_dir` (default: the data directory). */
  readonly checkpointRoots?: readonly string[]
  readonly log?: (line: string) => void
  /** Simulation time per batch before yielding (default 8 ms). */
  readonly sliceMs?: number
  /** Finished simulations kept in memory (default 16); others re-simulate on demand. */
  readonly cachedResults?: number
  /**
   * Simulations at once, queued runs, stored runs, streams per run (default `defaultRunLimits()`).
   */
  readonly limits?: RunLimits
  /**
   * When set, fresh runs simulate in worker threads off the server's event loop (RunManagerDeps).
   */
  readonly simulationWorkers?: SimulationWorkerFactory
  /**
   * When set, a finished run's trace.json is read and parsed off the server's event loop
   * (RunManagerDeps).
   */
  readonly readTrace?: ReadTrace
  /** How often a recording still being recorded is read (RunManagerDeps; default 250 ms). */
  readonly recordingPollMs?: number
  /** Whether a recorder's process is alive (RunManagerDeps; tests stand in for a killed one). */
  readonly processAlive?: (pid: number) => boolean
  /**
   * When set, a run's checkpoint folders are verified off the server's event loop (a worker
   * thread).
   */
  readonly verifyCheckpoints?: VerifyCheckpointFolder
  /**
   * When set, a checkpoint directory opened as a directory run is inspected off the server's event
   * loop (the same worker).
   */
  readonly inspectDirectories?: InspectDirectoryFolder
}

/** The app and the run manager behind it (the serve command creates the demo run through it). */
export interface ApiApp {
  readonly app: Hono
  readonly runs: RunManager
}

/** Builds the Cutover HTTP app and loads the runs already in the data directory. */
export function createApiApp(deps: AppDeps): ApiApp {
  const log = deps.log ?? ((line: string) => console.error(line))
  const runs = createRunManager({ ...deps, log })
  runs.load()
  const app = new Hono()

  app.use('*', securityHeaders())
  app.use('*', scrubErrorPaths(deps.store.root))
  app.use('/api/*', refuseCrossSite())
  app.use('/api/*', limitBody(API_BODY_LIMIT))
  app.get('/api/health', (c) => c.json({ status: 'ok' }))
  // Before runsRoutes: its GET /runs/:id answers directory runs and passes other ids on.
  app.route(
    '/api',
    directoriesRoutes(
      createDirectoryRuns({
        dataDir: deps.store.root,
        digest: deps.digest,
        clock: deps.clock,
        openReadOnly: (path) => deps.openDirectory(path, false),
        ...(deps.inspectDirectories === undefined ? {} : { inspect: deps.inspectDirectories }),
      }),
    ),
  )
  app.route('/api', runsRoutes(runs, deps.simulator))
  app.route('/api', runViewRoutes(runs))
  app.route('/api', diffRoutes(runs))
  app.route('/api', checkpointsRoutes(runs, deps.store, deps.digest, deps.verifyCheckpoints))

  for (const env of ENV_NAMES) {
    const participant = deps.gym[env]
    if (participant === undefined) continue
    const mountPath = `/gym/${env}`
    const gym = createGymSubApp({
      env,
      participant,
      mountPath,
      newSessionId: deps.newSessionId,
      controlToken: deps.controlToken,
      dataDir: deps.store.root,
      checkpointRoots: deps.checkpointRoots,
      digest: deps.digest,
      clock: deps.clock,
      openDirectory: deps.openDirectory,
    })
    app.route(mountPath, gym)
  }

  app.notFound((c) =>
    c.req.path.startsWith('/api/')
      ? errorResponse(c, 'not_found', `no route ${c.req.method} ${c.req.path}`)
      : c.text('Not Found', 404),
  )
  app.onError((error, c) => {
    log(error instanceof Error ? (error.stack ?? error.message) : String(error))
    return errorResponse(c, 'internal_error', 'internal error')
  })
  return { app, runs }
}

/**
 * Builds the Cutover HTTP app. Ports are injected so tests run it in memory with `app.request()`.
 */
export function createApp(deps: AppDeps): Hono {
  return createApiApp(deps).app
}

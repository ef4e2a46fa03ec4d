import { Hono } from 'hono'
import type { CheckpointDirectory, Clock, Digest, PolicyModel } from '@cutover/core'
import { TokenStore } from '@cutover/core'
import type { CheckpointPlace } from '../control/openCheckpointDir.ts'
import { GYM_BODY_LIMIT, limitBody } from '../http/bodyLimits.ts'
import type { ProcessNote } from '../participants/processTrace.ts'
import { ChangeSignal } from './ChangeSignal.ts'
import type { ModelWorkerPool } from './ModelWorkerPool.ts'
import { modelControlRoutes } from './modelControlRoutes.ts'
import { modelDataRoutes } from './modelDataRoutes.ts'

/** What one policy model server process needs. */
export interface ModelAppOptions extends CheckpointPlace {
  readonly model: PolicyModel
  /** Control routes are mounted only with a token (docs/fleet.md). */
  readonly controlToken: string | undefined
  readonly clock: Clock
  readonly openDirectory: (path: string, create: boolean) => CheckpointDirectory
  readonly pid: number
  readonly digest: Digest
  /** Records the messages this process sends (the fleet's trace); default: none. */
  readonly note?: ProcessNote
  /**
   * The worker processes behind the coordinator (`--workers N ≥ 2`), sharing this app's change
   * signal.
   */
  readonly pool?: ModelWorkerPool
  readonly signal?: ChangeSignal
}

/**
 * The policy model server (`cutover model`): `GET /` names it, the data plane answers
 * `/v1/responses`, and with a token the §3.2 control routes live under `/ng-control/v1`. One
 * `PolicyModel` instance serves both planes: the same class the simulator drives in process.
 */
export function createModelApp(options: ModelAppOptions): Hono {
  const { model } = options
  const signal = options.signal ?? new ChangeSignal()
  const tokens = new TokenStore()
  const app = new Hono()
  // Every route's body is bounded, in the envelope: a Responses body carries a whole conversation,
  // so the data plane takes what a Gym route takes (the control plane holds its own to the API's).
  app.use('*', limitBody(GYM_BODY_LIMIT))
  app.get('/', (c) =>
    c.json({
      participant: 'model',
      name: model.serverName,
      pid: options.pid,
      ...(options.pool === undefined ? {} : { workers: options.pool.describe() }),
    }),
  )
  if (options.controlToken !== undefined) {
    app.route(
      '/ng-control/v1',
      modelControlRoutes({
        model,
        signal,
        tokens,
        digest: options.digest,
        token: options.controlToken,
        dataDir: options.dataDir,
        checkpointRoots: options.checkpointRoots,
        clock: options.clock,
        openDirectory: options.openDirectory,
        pool: options.pool,
      }),
    )
  }
  app.route(
    '/',
    modelDataRoutes(
      model,
      tokens,
      signal,
      () => options.clock.now(),
      options.note ?? (() => undefined),
      options.pool,
    ),
  )
  return app
}

import type { Hono } from 'hono'
import type { Context } from 'hono'
import { z } from 'zod'
import type { CheckpointDirectory, Clock, Digest, PolicyModel, TokenStore } from '@cutover/core'
import { continuationRootSchema } from '@cutover/core'
import { cutoverErrorResponse, errorResponse } from '../http/errorResponse.ts'
import type { CheckpointPlace, DirectoryRequest } from '../control/openCheckpointDir.ts'
import { openCheckpointDir } from '../control/openCheckpointDir.ts'
import { controlOperation, controlReply, createControlApp } from '../control/createControlApp.ts'
import {
  controlBase,
  directoryBody,
  identityBody,
  operationBody,
} from '../control/controlBodies.ts'
import type { CutoverError } from '@cutover/core/contracts'
import type { ChangeSignal } from './ChangeSignal.ts'
import type { ModelWorkerPool } from './ModelWorkerPool.ts'

/** What the control routes of one policy model need. */
export interface ModelControlOptions extends CheckpointPlace {
  readonly model: PolicyModel
  readonly signal: ChangeSignal
  /** The generation worker's token store (the controller snapshots the committed staging keys). */
  readonly tokens: TokenStore
  readonly digest: Digest
  /** `CUTOVER_CONTROL_TOKEN`; compared in constant time, never logged or returned. */
  readonly token: string
  /** Wall-clock ms: `deadline_ts` is absolute Unix-epoch seconds. */
  readonly clock: Clock
  readonly openDirectory: (path: string, create: boolean) => CheckpointDirectory
  /** The worker processes behind the coordinator (`--workers N ≥ 2`). */
  readonly pool?: ModelWorkerPool | undefined
}

/**
 * Commit: the agent's continuation roots, or none — as the real NeMo-RL controller sends it; the
 * model then reads them from the agent namespace already committed in D (docs/real-stack.md).
 */
const commitBody = z.strictObject({
  ...directoryBody.shape,
  continuation_roots: z.array(continuationRootSchema).max(100_000).optional(),
})
const tokenSnapshotBody = z.strictObject({
  ...controlBase,
  staging_keys: z.array(z.string().max(512)).max(100_000),
})
/**
 * `status?checkpoint_id&wait_state=paused&timeout_s` (and the real controller's `deadline_ts`,
 * absolute seconds, which bounds the wait too; docs/real-stack.md).
 */
const longPollQuery = z.strictObject({
  checkpoint_id: controlBase.checkpoint_id,
  deadline_ts: z.coerce.number().nonnegative().finite().optional(),
  wait_state: z.literal('paused').optional(),
  // A long-poll is held 600 s at most, whatever the caller asks (the real controller asks for the
  // whole time left to its deadline).
  timeout_s: z.coerce
    .number()
    .nonnegative()
    .finite()
    .transform((s) => Math.min(s, 600))
    .optional(),
})

/** The policy model's capabilities (docs/protocol.md §3.1) merged with its fence snapshot. */
export function modelCapabilities(model: PolicyModel, pool?: ModelWorkerPool): object {
  const fence = model.fence.snapshot()
  return {
    component: 'responses_api_models',
    name: model.serverName,
    schema_version: 1,
    admission_states: ['accepting', 'draining', 'paused'],
    checkpoint_mode: 'export_restore',
    concurrency_contract: 'transactional_parallel',
    multi_process: {
      mode: model.workerCount > 1 ? 'coordinator' : 'single_worker',
      num_workers: model.workerCount,
      ...(pool === undefined ? {} : { workers: pool.describe() }),
    },
    instance_role: 'policy',
    features: ['long_poll_status', 'abort_inflight'],
    phase: fence.phase,
    active_checkpoint_id: fence.active_checkpoint_id,
    deadline_ts: fence.deadline_ms === null ? null : fence.deadline_ms / 1000,
  }
}

/**
 * The policy model's control plane (docs/protocol.md §3.2) under `/ng-control/v1`: capabilities,
 * `model-admission/{pause,status,abort_inflight,resume}` and `model-checkpoint/{commit,restore}`,
 * strict bodies, behind the bearer token. `status?wait_state=paused&timeout_s=…` is a real
 * long-poll: it holds the request until the model is paused or `min(timeout, remaining)` passed.
 */
export function modelControlRoutes(options: ModelControlOptions): Hono {
  const { model, signal, clock, pool } = options
  const app = createControlApp(options.token)
  /**
   * With worker processes, an admission answer names each worker (connected, acknowledged, pid).
   */
  const reply = (
    c: Context,
    result: { ok: true; value: unknown } | { ok: false; error: CutoverError },
  ): Response =>
    controlReply(
      c,
      pool === undefined || !result.ok
        ? result
        : { ok: true, value: { ...(result.value as object), per_worker: pool.perWorker() } },
    )
  const openDir = (
    c: Context,
    request: DirectoryRequest,
    create: boolean,
  ): CheckpointDirectory | Response =>
    openCheckpointDir(c, options, request, create, options.openDirectory, model.fence)

  app.get('/capabilities', (c) => c.json(modelCapabilities(model, pool)))

  controlOperation(app, '/model-admission/pause', operationBody, (body, c) => {
    const paused = model.pause(body.checkpoint_id, body.deadline_ts * 1000)
    if (paused.ok) pool?.closed()
    return reply(c, paused)
  })

  app.get('/model-admission/status', async (c) => {
    const query = longPollQuery.safeParse(c.req.query())
    if (!query.success)
      return errorResponse(
        c,
        'invalid_request',
        `status query: ${query.error.issues[0]?.message ?? 'invalid'}`,
      )
    const { checkpoint_id, wait_state, timeout_s, deadline_ts } = query.data
    const until = Math.min(
      clock.now() + (wait_state === undefined ? 0 : (timeout_s ?? 0) * 1000),
      deadline_ts === undefined ? Infinity : deadline_ts * 1000,
    )
    for (;;) {
      const polled = model.statusLongPoll(
        checkpoint_id,
        clock.now(),
        Math.max(0, until - clock.now()),
      )
      if (!polled.ok || polled.value.wait_ms <= 0)
        return reply(
          c,
          polled.ok ? { ok: true, value: { checkpoint_id, ...polled.value.report } } : polled,
        )
      await signal.wait(Math.min(polled.value.wait_ms, 250))
    }
  })

  controlOperation(app, '/model-admission/abort_inflight', identityBody, (body, c) => {
    const { checkpoint_id, rollout_id, attempt_index } = body
    const result = model.abortInflight(checkpoint_id, { rollout_id, attempt_index })
    signal.notify()
    return reply(c, result)
  })

  controlOperation(app, '/model-admission/resume', operationBody, (body, c) => {
    const resumed = model.resume(body.checkpoint_id)
    if (resumed.ok) pool?.reopened()
    return reply(c, resumed)
  })

  controlOperation(app, '/model-checkpoint/commit', commitBody, (body, c) => {
    const dir = openDir(c, body, true)
    if (dir instanceof Response) return dir
    return reply(c, model.commit(body.checkpoint_id, dir, body.continuation_roots))
  })

  controlOperation(app, '/model-checkpoint/restore', directoryBody, (body, c) => {
    const dir = openDir(c, body, false)
    if (dir instanceof Response) return dir
    return reply(c, model.restore(body.checkpoint_id, dir))
  })

  // Not a Gym route: the token store lives in this process, so the controller asks it for the
  // snapshot of the committed staging keys it seals into the checkpoint (docs/protocol.md §3.6
  // step 5).
  controlOperation(app, '/model-checkpoint/token-snapshot', tokenSnapshotBody, (body, c) => {
    const check = model.fence.requirePhase(body.checkpoint_id, ['committed_paused'])
    if (!check.ok) return cutoverErrorResponse(c, check.error)
    return c.json({ snapshot: options.tokens.snapshot(body.staging_keys, options.digest) })
  })

  app.all('*', (c) =>
    errorResponse(c, 'not_found', `no control route ${c.req.method} ${c.req.path}`),
  )
  return app
}

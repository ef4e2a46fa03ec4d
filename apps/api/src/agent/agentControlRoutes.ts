import type { Hono } from 'hono'
import type { Context } from 'hono'
import { z } from 'zod'
import type {
  AgentParticipant,
  AgentStatus,
  CheckpointDirectory,
  Clock,
  CompletionReceipt,
} from '@cutover/core'
import type { CutoverError } from '@cutover/core/contracts'
import { cutoverErrorResponse, errorResponse } from '../http/errorResponse.ts'
import { readValidJson } from '../http/jsonBody.ts'
import type { CheckpointPlace, DirectoryRequest } from '../control/openCheckpointDir.ts'
import { openCheckpointDir } from '../control/openCheckpointDir.ts'
import { ROLLOUT_ID_PATTERN } from '../control/executionIdentity.ts'
import { controlOperation, controlReply, createControlApp } from '../control/createControlApp.ts'
import {
  controlBase,
  controlSchemaVersion,
  directoryBody,
  identityBody,
  operationBody,
} from '../control/controlBodies.ts'
import type { ChangeSignal } from '../model/ChangeSignal.ts'

/** What the control routes of one agent need. */
export interface AgentControlOptions extends CheckpointPlace {
  readonly agent: AgentParticipant
  readonly signal: ChangeSignal
  readonly token: string
  readonly clock: Clock
  readonly openDirectory: (path: string, create: boolean) => CheckpointDirectory
}

const receiptSchema = z.strictObject({
  rollout_id: z.string().max(512).regex(ROLLOUT_ID_PATTERN),
  attempt_index: z.number().int().nonnegative(),
  execution_generation: z.number().int().nonnegative(),
  result_identity: z.string().max(512),
  result_digest: z.string().regex(/^[0-9a-f]{64}$/),
})
/**
 * One receipt, wrapped (`{schema_version, receipt}`, Cutover's dispatcher) or flat (the receipt's
 * own fields, as the real NeMo-RL controller posts what status listed; docs/real-stack.md).
 */
const acknowledgeBody = z.union([
  z.strictObject({ schema_version: controlSchemaVersion, receipt: receiptSchema }),
  z.strictObject({ schema_version: controlSchemaVersion, ...receiptSchema.shape }),
])
const acknowledgeCompletedBody = z.strictObject({
  schema_version: controlSchemaVersion,
  executions: z.array(receiptSchema).min(1).max(4096),
})
const statusQuery = z.strictObject({
  checkpoint_id: controlBase.checkpoint_id,
  wait_ready: z.literal('1').optional(),
  /**
   * The controller's deadline check: not ready once the deadline passed → 409
   * agent_prepare_incomplete.
   */
  at_deadline: z.literal('1').optional(),
  timeout_s: z.coerce.number().nonnegative().max(600).optional(),
})
/**
 * `POST prepare?wait_ready=0`: answer at once with the report (Cutover's own controller, which
 * polls status and retires stragglers at the deadline). Without it prepare answers as Gym's agent
 * does: once ready to commit, else 409 `agent_prepare_incomplete`.
 */
const prepareQuery = z.strictObject({ wait_ready: z.enum(['0', '1']).optional() })
const receiptQuery = z.strictObject({
  rollout_id: z.string().max(512).regex(ROLLOUT_ID_PATTERN),
  attempt_index: z.coerce.number().int().nonnegative(),
})

/** The receipt fields of a flat acknowledgement (its `schema_version` left out). */
function receiptOf(body: z.infer<typeof receiptSchema>): CompletionReceipt {
  return {
    rollout_id: body.rollout_id,
    attempt_index: body.attempt_index,
    execution_generation: body.execution_generation,
    result_identity: body.result_identity,
    result_digest: body.result_digest,
  }
}

/** The agent's capabilities (docs/protocol.md §3.1) merged with its fence snapshot. */
export function agentCapabilities(agent: AgentParticipant): object {
  const fence = agent.fence.snapshot()
  return {
    component: 'responses_api_agents',
    name: agent.instanceName,
    schema_version: 1,
    admission_states: ['accepting', 'preparing'],
    checkpoint_mode: 'export_restore',
    concurrency_contract: 'serialized_per_session',
    multi_process: { mode: 'single_worker', num_workers: 1 },
    features: ['turn_boundaries', 'completion_receipts'],
    phase: fence.phase,
    active_checkpoint_id: fence.active_checkpoint_id,
    deadline_ts: fence.deadline_ms === null ? null : fence.deadline_ms / 1000,
  }
}

/**
 * A status or prepare report as it goes on the wire: each completed-unacknowledged item also
 * carries its receipt as `completion_receipt`, the field the real controller reads and posts back
 * to `acknowledge` (docs/real-stack.md).
 */
export function wireStatus(report: AgentStatus): object {
  return {
    ...report,
    completed_unacknowledged_attempts: report.completed_unacknowledged_attempts.map((r) => ({
      ...r,
      completion_receipt: r,
    })),
  }
}

/**
 * The agent's control plane (docs/protocol.md §3.3) under `/ng-control/v1`: capabilities and
 * `agent-checkpoint/{prepare,status,commit,restore,resume,retire,acknowledge,acknowledge-completed,
 * completion-receipt,discard-restored-continuation}`, behind the bearer token. Prepare answers as
 * Gym's Design-A agent does, since the real controller calls it once and commits next: once ready
 * to commit (every execution parked on a boundary, no result unacknowledged), else at the
 * deadline with 409 `agent_prepare_incomplete` (`?wait_ready=0`: at once). Status with
 * `wait_ready=1&timeout_s=…` long-polls for `ready_to_commit`; with `at_deadline=1`, once the
 * prepare deadline has passed without readiness it answers 409 `agent_prepare_incomplete`
 * (`prepareDeadline`).
 */
export function agentControlRoutes(options: AgentControlOptions): Hono {
  const { agent, signal, clock } = options
  const app = createControlApp(options.token)
  const reply = controlReply
  const prepareReply = (
    c: Context,
    result: { ok: true; value: AgentStatus } | { ok: false; error: CutoverError },
  ): Response => reply(c, result.ok ? { ok: true, value: wireStatus(result.value) } : result)
  const openDir = (
    c: Context,
    request: DirectoryRequest,
    create: boolean,
  ): CheckpointDirectory | Response =>
    openCheckpointDir(c, options, request, create, options.openDirectory, agent.fence)

  app.get('/capabilities', (c) => c.json(agentCapabilities(agent)))

  app.post('/agent-checkpoint/prepare', async (c) => {
    const query = prepareQuery.safeParse(c.req.query())
    if (!query.success)
      return errorResponse(
        c,
        'invalid_request',
        `prepare query: ${query.error.issues[0]?.message ?? 'invalid'}`,
      )
    const body = await readValidJson(c, operationBody, 'prepare body')
    if (!body.ok) return cutoverErrorResponse(c, body.error)
    const cid = body.value.checkpoint_id
    const prepared = agent.prepare(cid, body.value.deadline_ts * 1000)
    signal.notify()
    if (!prepared.ok || query.data.wait_ready === '0') return prepareReply(c, prepared)
    for (;;) {
      const status = agent.status(cid)
      if (!status.ok || status.value.ready_to_commit) return prepareReply(c, status)
      // Not ready by the deadline (a completed result may still be acknowledged meanwhile): the
      // prepare failed, park requests revert and the fence is idle again.
      const left = agent.fence.remaining(clock.now())
      if (left <= 0 || c.req.raw.signal.aborted) return prepareReply(c, agent.prepareDeadline(cid))
      await signal.wait(Math.min(left, 250))
    }
  })

  app.get('/agent-checkpoint/status', async (c) => {
    const query = statusQuery.safeParse(c.req.query())
    if (!query.success)
      return errorResponse(
        c,
        'invalid_request',
        `status query: ${query.error.issues[0]?.message ?? 'invalid'}`,
      )
    const { checkpoint_id, wait_ready, timeout_s, at_deadline } = query.data
    const until = clock.now() + (wait_ready === undefined ? 0 : (timeout_s ?? 0) * 1000)
    for (;;) {
      const status = agent.status(checkpoint_id)
      if (!status.ok) return reply(c, status)
      if (status.value.ready_to_commit)
        return c.json({ checkpoint_id, ...wireStatus(status.value) })
      const phase = agent.fence.phase
      if (
        at_deadline !== undefined &&
        (phase === 'preparing' || phase === 'prepared') &&
        agent.fence.remaining(clock.now()) === 0
      )
        return reply(c, agent.prepareDeadline(checkpoint_id))
      const left = Math.min(until - clock.now(), agent.fence.remaining(clock.now()))
      if (left <= 0) return c.json({ checkpoint_id, ...wireStatus(status.value) })
      await signal.wait(Math.min(left, 250))
    }
  })

  controlOperation(app, '/agent-checkpoint/commit', directoryBody, (body, c) => {
    const dir = openDir(c, body, true)
    if (dir instanceof Response) return dir
    return reply(c, agent.commit(body.checkpoint_id, dir))
  })

  controlOperation(app, '/agent-checkpoint/restore', directoryBody, (body, c) => {
    const dir = openDir(c, body, false)
    if (dir instanceof Response) return dir
    const restored = agent.restore(body.checkpoint_id, dir)
    if (!restored.ok) return reply(c, restored)
    return c.json({ ...restored.value, continuation_index: restored.value.continuations })
  })

  controlOperation(app, '/agent-checkpoint/resume', operationBody, (body, c) => {
    const result = agent.resume(body.checkpoint_id)
    signal.notify()
    return reply(c, result)
  })

  controlOperation(app, '/agent-checkpoint/retire', identityBody, (body, c) => {
    const { checkpoint_id, rollout_id, attempt_index } = body
    const result = agent.retire(checkpoint_id, { rollout_id, attempt_index })
    signal.notify()
    return reply(c, result)
  })

  controlOperation(app, '/agent-checkpoint/acknowledge', acknowledgeBody, (body, c) => {
    const receipt = 'receipt' in body ? body.receipt : receiptOf(body)
    const result = agent.acknowledgeOne(receipt)
    signal.notify()
    return reply(c, result)
  })

  controlOperation(
    app,
    '/agent-checkpoint/acknowledge-completed',
    acknowledgeCompletedBody,
    (body, c) => {
      const result = agent.acknowledge(body.executions as CompletionReceipt[])
      signal.notify()
      return reply(
        c,
        result.ok
          ? {
              ok: true,
              value: {
                acknowledged: result.value.acknowledged,
                idempotent: result.value.idempotent,
              },
            }
          : result,
      )
    },
  )

  app.get('/agent-checkpoint/completion-receipt', (c) => {
    const query = receiptQuery.safeParse(c.req.query())
    if (!query.success)
      return errorResponse(
        c,
        'invalid_request',
        `completion-receipt query: ${query.error.issues[0]?.message ?? 'invalid'}`,
      )
    return reply(c, agent.completionReceipt(query.data))
  })

  controlOperation(
    app,
    '/agent-checkpoint/discard-restored-continuation',
    identityBody,
    (body, c) => {
      const { checkpoint_id, rollout_id, attempt_index } = body
      return reply(c, agent.discardContinuation(checkpoint_id, { rollout_id, attempt_index }))
    },
  )

  app.all('*', (c) =>
    errorResponse(c, 'not_found', `no control route ${c.req.method} ${c.req.path}`),
  )
  return app
}

import { Hono } from 'hono'
import type { Context } from 'hono'
import { z } from 'zod'
import type { PolicyModel, TokenStore } from '@cutover/core'
import { GenerationWorker } from '@cutover/core'
import { cutoverErrorResponse, errorResponse } from '../http/errorResponse.ts'
import { readValidJson } from '../http/jsonBody.ts'
import { readExecutionIdentity } from '../control/executionIdentity.ts'
import type { ProcessNote } from '../participants/processTrace.ts'
import type { ChangeSignal } from './ChangeSignal.ts'
import type { ModelWorkerPool } from './ModelWorkerPool.ts'
import { workplaceExamples } from '../participants/workplaceExamples.ts'
import { plainPolicyInput } from './plainPolicyInput.ts'
import { policyInputSchema, scriptedPolicy } from './scriptedPolicy.ts'

/** The answer header naming the model call (the lineage row's id). */
export const MODEL_CALL_ID_HEADER = 'x-nemo-gym-model-call-id'

/**
 * An OpenAI Responses body. `metadata.cutover_policy` (Cutover's agent: the policy input as JSON)
 * is optional: a plain body, as a real Gym agent sends it, is read by `plainPolicyInput`.
 */
const responsesBody = z.looseObject({
  input: z.unknown().optional(),
  tools: z.unknown().optional(),
  metadata: z.looseObject({ cutover_policy: z.string().max(70_000).optional() }).optional(),
})

/**
 * The policy model's data plane (docs/fleet.md, docs/real-stack.md): `POST /v1/responses`, plain or
 * under `/ng-rollout/<capture_key>/`, with the execution identity headers (either spelling), a
 * Cutover agent's body or a plain Responses body. Admission goes through the
 * participant (`checkpoint_parked` + `retry-after: 1` while closed, `stale_attempt` when fenced);
 * the scripted policy answers; the generation worker stages the tokens; custody (the lineage row)
 * is recorded before the answer is sent, and the call stays in flight until then.
 */
export function modelDataRoutes(
  model: PolicyModel,
  tokens: TokenStore,
  signal: ChangeSignal,
  now: () => number,
  note: ProcessNote,
  pool?: ModelWorkerPool,
): Hono {
  const app = new Hono()
  const worker = new GenerationWorker(tokens)
  const handle = async (c: Context, captureKey: string | undefined): Promise<Response> => {
    const identity = readExecutionIdentity((name) => c.req.header(name), captureKey)
    if (!identity.ok) return cutoverErrorResponse(c, identity.error)
    if (identity.value === undefined)
      return errorResponse(
        c,
        'execution_identity_mismatch',
        'POST /v1/responses needs x-nemo-gym-rollout-id and x-nemo-gym-attempt-index',
      )
    const body = await readValidJson(c, responsesBody, 'responses body')
    if (!body.ok) return cutoverErrorResponse(c, body.error)
    const policy = body.value.metadata?.cutover_policy
    let raw: unknown
    try {
      raw =
        policy === undefined
          ? plainPolicyInput(body.value, workplaceExamples())
          : JSON.parse(policy)
    } catch {
      return errorResponse(c, 'malformed_json', 'metadata.cutover_policy is not JSON')
    }
    const input = policyInputSchema.safeParse(raw)
    if (!input.success)
      return errorResponse(
        c,
        'invalid_request',
        `metadata.cutover_policy: ${input.error.issues[0]?.message ?? 'invalid'}`,
      )
    // With worker processes the coordinator admits the call for one connected worker (round robin).
    const admitted = model.admit(identity.value, pool?.pick() ?? 0)
    if (!admitted.ok) return cutoverErrorResponse(c, admitted.error)
    const a = admitted.value
    const id = identity.value
    let decision: ReturnType<typeof scriptedPolicy>
    if (pool === undefined) {
      // A slow generation; `abort_inflight` (which notifies the signal) cancels it: the task exits.
      const until = now() + (input.data.delay_ms ?? 0)
      while (now() < until && !model.isTombstoned(id)) await signal.wait(until - now())
      decision = scriptedPolicy(input.data)
    } else {
      // A worker that goes away mid-generation leaves the call in flight (never an implicit zero)
      // until another connected worker generates it (the scripted policy is deterministic).
      let worker: number | undefined = a.worker
      let generated: Awaited<ReturnType<ModelWorkerPool['generate']>> = null
      while (generated === null && !model.isTombstoned(id)) {
        generated =
          worker === undefined
            ? null
            : await pool.generate(worker, input.data, () => model.isTombstoned(id))
        if (generated === null && !model.isTombstoned(id)) {
          await signal.wait(200)
          worker = pool.pick()
        }
      }
      decision = generated?.decision ?? null
    }
    if (!model.isInflight(a.ticket))
      return errorResponse(c, 'stale_attempt', `the call ${a.model_call_id} was aborted`)
    const coords = worker.stage(a.model_call_id, a.prev_len, decision?.text ?? '')
    const row = model.complete(a.ticket, coords, now())
    if (!row.ok) {
      model.taskExit(a.ticket)
      signal.notify()
      return cutoverErrorResponse(c, row.error)
    }
    signal.notify()
    note(
      'agent',
      'model.response',
      {
        ...identity.value,
        model_call_id: a.model_call_id,
        parent_call_id: a.parent_call_id,
        relay: a.relay,
        text: decision?.text ?? '',
      },
      'ok',
    )
    c.header(MODEL_CALL_ID_HEADER, a.model_call_id)
    return c.json({
      id: `resp_${a.model_call_id}`,
      object: 'response',
      status: 'completed',
      model: model.serverName,
      output: decision === null ? [] : [decision.item],
      output_text: decision?.text ?? '',
      parent_call_id: a.parent_call_id,
      relay: a.relay,
      usage: {
        input_tokens: a.prev_len,
        output_tokens: coords.delta_len,
        total_tokens: coords.cum_len,
      },
    })
  }
  app.post('/v1/responses', (c) => handle(c, undefined))
  app.post('/ng-rollout/:captureKey/v1/responses', (c) => handle(c, c.req.param('captureKey')))
  return app
}

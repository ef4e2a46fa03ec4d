import type { ExecutionIdentity, JsonValue, RolloutPlan } from '@cutover/core'
import { startRequest } from '@cutover/core'
import { errorCodeOf, fetchJson } from '../control/fetchJson.ts'
import { ATTEMPT_INDEX_HEADER, ROLLOUT_ID_HEADER } from '../control/executionIdentity.ts'
import type { WireRecord } from '../participants/processTrace.ts'

/**
 * Where the delayed requests go: the restored fleet's model, agent and the rollout's resources
 * server.
 */
export interface StaleTargets {
  readonly model: string
  readonly agent: string
  readonly resources: string
}

/**
 * `stale-attempt-fenced` across processes: delayed requests of attempt N of a continued rollout
 * reach the restored policy model (`/v1/responses`), agent (`/run`) and resources server, sent as
 * `rollout_<id>`; each must refuse with `stale_attempt` before touching any state (restore
 * installed N as a tombstone in all three). Returns the trace records (`delayed: true`) with each
 * answer's code.
 */
export async function sendStaleRequests(
  stale: ExecutionIdentity,
  plan: RolloutPlan,
  to: StaleTargets,
  pid: number,
  seq: () => number,
): Promise<WireRecord[]> {
  const env = plan.env
  const from = `rollout_${stale.rollout_id}`
  const headers = {
    [ROLLOUT_ID_HEADER]: stale.rollout_id,
    [ATTEMPT_INDEX_HEADER]: String(stale.attempt_index),
  }
  const ids = { rollout_id: stale.rollout_id, attempt_index: stale.attempt_index, delayed: true }
  const codeOf = (r: Awaited<ReturnType<typeof fetchJson>>): string =>
    r.ok ? (errorCodeOf(r.body) ?? (r.status < 300 ? 'ok' : 'invalid_response')) : r.code
  const record = (
    toWhom: string,
    type: string,
    payload: { [key: string]: JsonValue },
    outcome: string,
    at: number,
  ): WireRecord => ({
    from,
    to: toWhom,
    type,
    payload: { ...ids, ...payload },
    outcome,
    wall_ms: at,
    pid,
    seq: seq(),
  })
  const out: WireRecord[] = []
  let at = Date.now()
  const policy = JSON.stringify({
    environment: env,
    task: 0,
    turn: 0,
    observation: null,
    done: false,
  })
  const model = await fetchJson(`${to.model}/v1/responses`, {
    method: 'POST',
    body: { input: [], metadata: { cutover_policy: policy } },
    headers,
    timeoutMs: 10_000,
  })
  out.push(
    record(
      'policy_model',
      'model.request',
      { model_call_id: null, parent_call_id: null, relay: false },
      codeOf(model),
      at,
    ),
  )
  at = Date.now()
  const agent = await fetchJson(`${to.agent}/run`, {
    method: 'POST',
    body: { ...stale, environment: env },
    timeoutMs: 10_000,
  })
  out.push(
    record(
      'agent',
      'run.dispatch',
      { environment: env, continued: false, generation: null },
      codeOf(agent),
      at,
    ),
  )
  at = Date.now()
  // The rollout's own first request (its session start), delayed: a valid body, so only the fence
  // can refuse it.
  const start = startRequest(plan)
  const path = start.path
  const requestId = `${stale.rollout_id}.a${stale.attempt_index}.stale`
  const resources = await fetchJson(`${to.resources}${path}`, {
    method: 'POST',
    body: start.body,
    headers: { ...headers, 'x-nemo-gym-resource-request-id': requestId },
    timeoutMs: 10_000,
  })
  out.push(
    record(
      `resources_${env}`,
      'env.request',
      {
        path,
        request_id: requestId,
        revision: null,
        status: resources.ok ? resources.status : 0,
        replayed: false,
      },
      codeOf(resources),
      at,
    ),
  )
  return out
}

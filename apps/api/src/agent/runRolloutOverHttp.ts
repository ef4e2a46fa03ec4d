import type {
  AgentBoundaryRecord,
  AgentParticipant,
  CompletionReceipt,
  DriverState,
  EnvName,
  ExecutionIdentity,
  JsonValue,
  RolloutPlan,
} from '@cutover/core'
import {
  INITIAL_DRIVER_STATE,
  applyEnvResponse,
  applyStart,
  decide,
  executionKey,
  startRequest,
  verifyRequest,
} from '@cutover/core'
import type { CutoverError } from '@cutover/core/contracts'
import { cutoverError } from '@cutover/core/contracts'
import { errorCodeOf, fetchJson } from '../control/fetchJson.ts'
import { ATTEMPT_INDEX_HEADER, ROLLOUT_ID_HEADER } from '../control/executionIdentity.ts'
import { REVISION_HEADER } from '../gym/createParticipantGymHost.ts'
import type { ChangeSignal } from '../model/ChangeSignal.ts'
import { MODEL_CALL_ID_HEADER } from '../model/modelDataRoutes.ts'
import type { ProcessNote } from '../participants/processTrace.ts'
import { workplaceExamples } from '../participants/workplaceExamples.ts'
import { gymRequestBody } from './gymRequestBody.ts'

/** Where the agent's rollouts go: the policy model and one resources server per environment. */
export interface AgentUpstreams {
  readonly model: string
  readonly resources: { readonly [K in EnvName]: string }
}

/** What `/run` answers once the rollout ended (docs/fleet.md). */
export interface RunAnswer {
  readonly rollout_id: string
  readonly attempt_index: number
  readonly reward: number
  readonly output: readonly JsonValue[]
  readonly receipt: CompletionReceipt | null
}

type Outcome = { ok: true; value: RunAnswer } | { ok: false; error: CutoverError }

/**
 * Runs one rollout of `plan` over HTTP as the simulator's `RolloutDriver` does in process: the same
 * scripted turns (`decide`, `applyEnvResponse`), the model and the resources servers called with
 * the identity headers, a request id and the expected revision; a boundary committed to the agent
 * participant after the start and after every turn. Parked (prepare, or a `checkpoint_parked`
 * refusal) it really waits until resume; fenced or retired meanwhile, it ends `stale_attempt`.
 */
export async function runRolloutOverHttp(
  agent: AgentParticipant,
  upstreams: AgentUpstreams,
  plan: RolloutPlan,
  attempt: number,
  signal: ChangeSignal,
  note: ProcessNote,
  options: { readonly modelDelayMs?: number } = {},
): Promise<Outcome> {
  const id: ExecutionIdentity = { rollout_id: plan.rollout_id, attempt_index: attempt }
  const key = executionKey(id)
  const begun = agent.begin(id)
  if (!begun.ok) return begun
  const execution = begun.value.execution
  if (begun.value.replayed) {
    const result = execution.result as { reward?: number; output?: JsonValue[] } | null
    return {
      ok: true,
      value: {
        ...id,
        reward: result?.reward ?? 0,
        output: result?.output ?? [],
        receipt: execution.receipt,
      },
    }
  }
  const generation = execution.generation
  const examples = plan.env === 'workplace' ? workplaceExamples() : []
  const envUrl = upstreams.resources[plan.env]
  const headers = { [ROLLOUT_ID_HEADER]: plan.rollout_id, [ATTEMPT_INDEX_HEADER]: String(attempt) }
  const fail = (code: Parameters<typeof cutoverError>[0], message: string): Outcome => {
    agent.finish(id, generation, 'failed', null)
    return { ok: false, error: cutoverError(code, message) }
  }
  const stale = (): Outcome => ({
    ok: false,
    error: cutoverError('stale_attempt', `attempt ${key} was retired or fenced while it ran`),
  })

  /** Waits while the execution is parked; false when it no longer owns the attempt. */
  const waitWhileParked = async (): Promise<boolean> => {
    for (;;) {
      const e = agent.execution(id)
      if (e === undefined || e.generation !== generation || e.state === 'retired') return false
      if (e.state !== 'parked' && e.state !== 'park_requested') return true
      await signal.wait(1000)
    }
  }

  let state: DriverState = INITIAL_DRIVER_STATE
  let boundaryIndex = 0
  let revision = 0
  let lastCall: string | null = null
  const cont = execution.continuation
  if (cont !== null) {
    state = cont.agent_state['driver'] as unknown as DriverState
    boundaryIndex = cont.boundary_index + 1
    revision = cont.resource_state_revisions[plan.env] ?? 0
  } else {
    const req = startRequest(plan)
    const startSent = Date.now()
    const resp = await fetchJson(`${envUrl}${req.path}`, {
      method: 'POST',
      body: req.body,
      headers,
    })
    revision = resp.ok ? Number(resp.headers.get(REVISION_HEADER) ?? '0') : 0
    note(
      `resources_${plan.env}`,
      'env.start',
      {
        ...id,
        path: req.path,
        session_id: null,
        revision: resp.ok ? revision : null,
        status: resp.ok ? resp.status : 0,
      },
      resp.ok ? (errorCodeOf(resp.body) ?? 'ok') : resp.code,
      { at: startSent },
    )
    if (!resp.ok)
      return fail('transport_error', `resources ${plan.env} ${req.path}: ${resp.message}`)
    if (resp.status >= 400)
      return fail(
        'invalid_request',
        `resources ${plan.env} ${req.path} answered ${resp.status} ${errorCodeOf(resp.body) ?? ''}`,
      )
    state = applyStart(plan, state, resp.body as JsonValue)
    if (!commit()) return stale()
  }

  function commit(): boolean {
    const record: AgentBoundaryRecord = {
      rollout_id: plan.rollout_id,
      attempt_index: attempt,
      boundary_index: boundaryIndex,
      turn_index: state.turn,
      boundary_kind: 'turn_complete',
      output_items: [...state.outputs],
      usage: null,
      last_committed_model_call_id: lastCall,
      resource_state_revisions: { [plan.env]: revision },
      agent_state: {
        driver: state as unknown as JsonValue,
        environment: plan.env,
        task: plan.task,
        seed: plan.seed.toString(),
      },
      created_at: Date.now(),
    }
    const c = agent.commitBoundary(id, generation, record)
    note(
      'agent',
      'agent.boundary',
      {
        ...id,
        boundary_index: boundaryIndex,
        last_committed_model_call_id: lastCall,
        resource_state_revisions: { [plan.env]: revision },
        parked: c.ok && c.value.state === 'parked',
      },
      c.ok ? 'ok' : c.error.code,
    )
    if (!c.ok) return false
    boundaryIndex++
    signal.notify()
    return true
  }

  for (;;) {
    if (!(await waitWhileParked())) return stale()
    const decision = decide(plan, state, examples)
    if (decision === null) break
    const leave = agent.leaveBoundary(id, generation)
    if (!leave.ok) {
      if (leave.error.code === 'checkpoint_parked') continue
      return stale()
    }
    const policy = {
      environment: plan.env,
      task: plan.task,
      turn: state.turn,
      observation: state.observation,
      done: state.done,
      ...(options.modelDelayMs === undefined ? {} : { delay_ms: options.modelDelayMs }),
    }
    const modelSent = Date.now()
    const modelResp = await fetchJson(`${upstreams.model}/v1/responses`, {
      method: 'POST',
      body: { input: [], metadata: { cutover_policy: JSON.stringify(policy) } },
      headers,
    })
    const modelCode = modelResp.ok ? (errorCodeOf(modelResp.body) ?? 'ok') : modelResp.code
    const callId = modelResp.ok ? modelResp.headers.get(MODEL_CALL_ID_HEADER) : null
    const answer = modelResp.ok
      ? (modelResp.body as { parent_call_id?: unknown; relay?: unknown } | null)
      : null
    const parentCallId = typeof answer?.parent_call_id === 'string' ? answer.parent_call_id : null
    note(
      'policy_model',
      'model.request',
      {
        ...id,
        model_call_id: callId,
        parent_call_id: parentCallId,
        relay: answer?.relay === true,
        turn: state.turn,
      },
      modelCode,
      { at: modelSent },
    )
    if (!modelResp.ok) return fail('transport_error', `model /v1/responses: ${modelResp.message}`)
    if (modelCode === 'checkpoint_parked') {
      // Refused before any state changed: park without a boundary, retry after resume.
      agent.park(id, generation)
      signal.notify()
      continue
    }
    if (modelCode === 'stale_attempt') return stale()
    if (modelResp.status >= 400 || callId === null)
      return fail(
        'invalid_request',
        `model /v1/responses answered ${modelResp.status} ${modelCode}`,
      )
    lastCall = callId
    const requestId = `${key}.t${state.turn}`
    let envResp
    for (;;) {
      const envSent = Date.now()
      envResp = await fetchJson(`${envUrl}${decision.route}`, {
        method: 'POST',
        body: gymRequestBody(decision.body),
        headers: {
          ...headers,
          'x-nemo-gym-resource-request-id': requestId,
          'x-nemo-gym-expected-resource-state-revision': String(revision),
        },
      })
      const code = envResp.ok ? (errorCodeOf(envResp.body) ?? 'ok') : envResp.code
      const after = envResp.ok
        ? Number(envResp.headers.get(REVISION_HEADER) ?? String(revision))
        : null
      note(
        `resources_${plan.env}`,
        'env.request',
        {
          ...id,
          path: decision.route,
          request_id: requestId,
          revision: after,
          status: envResp.ok ? envResp.status : 0,
          replayed: false,
        },
        code,
        { at: envSent },
      )
      if (!envResp.ok)
        return fail(
          'transport_error',
          `resources ${plan.env} ${decision.route}: ${envResp.message}`,
        )
      if (code !== 'checkpoint_parked') break
      agent.park(id, generation)
      signal.notify()
      if (!(await waitWhileParked())) return stale()
    }
    const code = errorCodeOf(envResp.body)
    if (code === 'stale_attempt') return stale()
    if (code !== undefined)
      return fail('invalid_request', `resources ${plan.env} ${decision.route} refused: ${code}`)
    revision = Number(envResp.headers.get(REVISION_HEADER) ?? String(revision))
    state = applyEnvResponse(
      plan,
      state,
      decision,
      envResp.status,
      envResp.body as JsonValue,
      false,
    )
    if (state.done) break
    if (!commit()) return stale()
  }

  let reward = state.reward
  const verify = verifyRequest(plan, state, examples)
  if (verify !== null) {
    const verifySent = Date.now()
    const resp = await fetchJson(`${envUrl}${verify.path}`, {
      method: 'POST',
      body: gymRequestBody(verify.body),
      headers,
    })
    const b = resp.ok ? (resp.body as { reward?: unknown } | null) : null
    reward = typeof b?.reward === 'number' ? b.reward : 0
    note(
      `resources_${plan.env}`,
      'env.verify',
      { ...id, path: verify.path, reward, status: resp.ok ? resp.status : 0 },
      resp.ok ? (errorCodeOf(resp.body) ?? 'ok') : resp.code,
      { at: verifySent },
    )
    if (!resp.ok)
      return fail('transport_error', `resources ${plan.env} ${verify.path}: ${resp.message}`)
  }
  const result: JsonValue = { reward, output: [...state.outputs] }
  const fin = agent.finish(id, generation, 'completed', result)
  signal.notify()
  if (!fin.ok) return fin
  return { ok: true, value: { ...id, reward, output: [...state.outputs], receipt: fin.value } }
}

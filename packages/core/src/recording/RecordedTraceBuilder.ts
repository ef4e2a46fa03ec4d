import { ENV_NAMES } from '../contracts/environments.ts'
import { ERROR_CODES } from '../contracts/errors.ts'
import type { ErrorCode } from '../contracts/errors.ts'
import type { TraceEvent, TracePhase } from '../contracts/trace.ts'
import type { JsonValue } from '../json.ts'
import type { RecordedExchange } from './RecordedExchange.ts'
import { exchangeEnd } from './RecordedExchange.ts'
import type { ParticipantRole } from './exchangeRoute.ts'
import { exchangeRoute, splitRolloutPrefix } from './exchangeRoute.ts'

type Json = { readonly [key: string]: JsonValue }

const objectOf = (v: unknown): Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {}
const textOf = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const intOf = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && /^[0-9]{1,9}$/.test(v) ? Number(v) : v
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined
}

/** A header of the request or the answer, by its lower-case name. */
function header(
  e: RecordedExchange,
  side: 'request' | 'response',
  name: string,
): string | undefined {
  const headers = e.headers?.[side]
  if (headers === undefined) return undefined
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value
  return undefined
}

/** The execution identity an exchange names: identity headers (both spellings), then its body. */
export function exchangeIdentity(
  e: RecordedExchange,
): { rollout_id: string; attempt_index: number | null } | null {
  const rollout =
    header(e, 'request', 'x-nemo-gym-rollout-id') ?? header(e, 'request', 'x-ng-rollout-id')
  const attempt =
    header(e, 'request', 'x-nemo-gym-attempt-index') ?? header(e, 'request', 'x-ng-attempt-index')
  if (rollout !== undefined) return { rollout_id: rollout, attempt_index: intOf(attempt) ?? null }
  const body = objectOf(e.request)
  const id = textOf(body['rollout_id'])
  if (id !== undefined)
    return { rollout_id: id, attempt_index: intOf(body['attempt_index']) ?? null }
  const capture = splitRolloutPrefix(e.path).capture
  if (capture !== null) {
    const m = /^(.*)-a([0-9]{1,9})$/.exec(capture)
    return m === null
      ? { rollout_id: capture, attempt_index: 0 }
      : { rollout_id: m[1] as string, attempt_index: Number(m[2]) }
  }
  return null
}

/** The error code and message of a refusal, from whatever envelope the answer has. */
export function refusalOf(e: RecordedExchange): { code: string | null; message: string } {
  const error = objectOf(objectOf(e.response)['error'])
  const code = textOf(error['code']) ?? null
  const message =
    textOf(error['message']) ??
    textOf(error['detail']) ??
    textOf(objectOf(e.response)['detail']) ??
    e.transport_error ??
    (typeof e.response === 'string' ? e.response.slice(0, 200) : '')
  return { code, message }
}

/** The trace outcome of an exchange: `ok` for 2xx, else the protocol code it answered (or the
 * nearest one: 401 `unauthorized`, 422 and other 4xx `invalid_request`, no answer
 * `transport_error`, 5xx `internal_error`). */
function outcomeOf(e: RecordedExchange): 'ok' | ErrorCode {
  if (e.status !== null && e.status >= 200 && e.status < 300) return 'ok'
  if (e.status === null) return 'transport_error'
  const { code } = refusalOf(e)
  if (code !== null && (ERROR_CODES as readonly string[]).includes(code)) return code as ErrorCode
  if (e.status === 401) return 'unauthorized'
  if (e.status === 404) return 'not_found'
  if (e.status === 413) return 'payload_too_large'
  if (e.status === 502 || e.status === 504) return 'transport_error'
  return e.status >= 500 ? 'internal_error' : 'invalid_request'
}

/** The role a participant name says it has (`policy`, `agent`, a resources server name). */
function roleOfName(name: string): ParticipantRole | null {
  if (name === 'policy' || name === 'policy_model') return 'model'
  if (name === 'agent') return 'agent'
  if (name.startsWith('resources_') || (ENV_NAMES as readonly string[]).includes(name))
    return 'resources'
  return null
}

/** The role a capabilities answer declares (`component`). */
function roleOfComponent(e: RecordedExchange): ParticipantRole | null {
  const component = objectOf(e.response)['component']
  if (component === 'responses_api_models') return 'model'
  if (component === 'responses_api_agents') return 'agent'
  if (component === 'resources_servers') return 'resources'
  return null
}

/** The trace participant id (docs/protocol.md §12.2) of a recorded participant with this role. */
export function traceParticipantId(name: string, role: ParticipantRole): string {
  if (role === 'model') return name === 'policy' || name === 'policy_model' ? 'policy_model' : name
  if (role === 'agent') return name
  return name.startsWith('resources_') ? name : `resources_${name}`
}

/**
 * Builds a recorded run's trace one exchange at a time (docs/protocol.md §12.2): each exchange is
 * one event, drawn when its answer came (the recording's line order), from the caller (the
 * controller for control calls and `/run`, the agent for its model and resources calls) to the
 * participant, with the exchange whole in its payload: route, status, duration, request and
 * answer. Phases come from the control routes (prepare, retire, commit, restore, resume; abort
 * for the resumes after a refusal); other calls take the phase the cycle is in, and after a
 * resume the cycle continues. A long poll (a status call that waits) is one call with its wait.
 */
export class RecordedTraceBuilder {
  readonly #roles = new Map<string, ParticipantRole>()
  readonly #failed = new Set<string>()
  readonly #commits = new Map<string, number>()
  #phase: TracePhase = 'run'
  #t0: number | null = null
  #lastMs = 0
  #step = 0

  /** The participants seen so far: recording name → trace id, in order of appearance. */
  participants(): { readonly name: string; readonly id: string; readonly role: ParticipantRole }[] {
    return [...this.#roles].map(([name, role]) => ({
      name,
      id: traceParticipantId(name, role),
      role,
    }))
  }

  /** The event of the next exchange (`line`: its line in the recording). */
  add(e: RecordedExchange, line: number): TraceEvent {
    const route = exchangeRoute(e.method, e.path)
    let role = this.#roles.get(e.participant)
    if (role === undefined) {
      role = roleOfName(e.participant) ?? route.role ?? roleOfComponent(e) ?? 'resources'
      this.#roles.set(e.participant, role)
    }
    const to = traceParticipantId(e.participant, role)
    const identity = exchangeIdentity(e)
    const outcome = outcomeOf(e)
    const body = objectOf(e.request)
    const answer = objectOf(e.response)
    const checkpointId =
      textOf(body['checkpoint_id']) ??
      textOf(e.query['checkpoint_id']) ??
      textOf(answer['checkpoint_id'])

    let type = route.type
    if (route.operation === 'call' && role === 'resources' && e.method.toUpperCase() === 'POST')
      type = 'env.request'
    const agentCalls =
      route.operation === 'model_call' ||
      route.operation === 'env_start' ||
      route.operation === 'env_verify' ||
      type === 'env.request' ||
      (route.plane === 'data' && identity !== null && role !== 'agent')
    const from = route.plane === 'data' && agentCalls ? 'agent' : 'controller'

    // The phase: a control route sets it; everything else takes the cycle's, and the first call
    // after a resume continues the cycle (or, after an abort's resumes, simply runs on).
    let phase: TracePhase
    if (route.phase !== null) {
      phase =
        route.phase === 'resume' && checkpointId !== undefined && this.#failed.has(checkpointId)
          ? 'abort'
          : route.phase
      this.#phase = phase
    } else {
      if (this.#phase === 'resume') this.#phase = 'continue'
      else if (this.#phase === 'abort') this.#phase = 'run'
      phase = this.#phase
    }
    // A refused prepare, retirement, commit or restore fails the checkpoint: its resumes abort it.
    if (outcome !== 'ok' && checkpointId !== undefined && route.plane === 'control')
      if (['prepare', 'retire', 'commit', 'restore'].includes(route.operation))
        this.#failed.add(checkpointId)

    this.#t0 ??= e.t
    const startMs = Math.round((e.t - this.#t0) * 1000)
    const endMs = Math.max(this.#lastMs, Math.round((exchangeEnd(e) - this.#t0) * 1000))
    this.#lastMs = endMs
    const ms = e.ms ?? (e.t_end === undefined ? 0 : Math.round((e.t_end - e.t) * 1000))

    const payload: { [key: string]: JsonValue } = {
      exchange: line,
      participant: e.participant,
      method: e.method,
      path: e.path,
      query: e.query as JsonValue,
      http_status: e.status,
      ms,
      started_ms: startMs,
      wall_start_s: e.t,
      wall_end_s: exchangeEnd(e),
    }
    if (checkpointId !== undefined) payload['checkpoint_id'] = checkpointId
    const dir = textOf(body['checkpoint_dir'])
    if (dir !== undefined) payload['checkpoint_dir'] = dir
    if (identity !== null) {
      payload['rollout_id'] = identity.rollout_id
      if (identity.attempt_index !== null) payload['attempt_index'] = identity.attempt_index
    }
    if (route.operation === 'status' && ('timeout_s' in e.query || 'wait_state' in e.query))
      payload['long_poll'] = true
    if (outcome !== 'ok') {
      const refusal = refusalOf(e)
      payload['message'] = refusal.message
      if (refusal.code !== null) payload['error_code'] = refusal.code
    }
    if (e.transport_error !== undefined) payload['transport_error'] = e.transport_error
    this.#typedFields(type, e, payload, { checkpointId, answer, body, role })
    payload['request'] = e.request
    payload['response'] = e.response
    if (e.headers !== undefined) payload['headers'] = e.headers as JsonValue
    for (const side of ['request_body', 'response_body'] as const) {
      const kept = e[side]
      if (kept?.truncated === true) payload[side] = kept as unknown as JsonValue
    }
    const bridged: { [key: string]: JsonValue } = {}
    for (const key of Object.keys(e))
      if (key.startsWith('bridged_')) bridged[key.slice('bridged_'.length)] = e[key] as JsonValue
    if (Object.keys(bridged).length > 0) payload['bridged'] = bridged

    this.#step += 1
    return {
      step: this.#step,
      time_ms: endMs,
      phase,
      from,
      to,
      type,
      payload,
      outcome,
    } as unknown as TraceEvent
  }

  /** The fields the event catalogue declares for each type, as far as the exchange tells them. */
  #typedFields(
    type: string,
    e: RecordedExchange,
    payload: { [key: string]: JsonValue },
    ctx: { checkpointId: string | undefined; answer: Json; body: Json; role: ParticipantRole },
  ): void {
    const { answer, body } = ctx
    const deadline = body['deadline_ts']
    if ((type === 'agent.prepare' || type === 'model.pause') && typeof deadline === 'number')
      payload['deadline_ms'] = Math.max(0, Math.round((deadline - e.t) * 1000))
    if (type.endsWith('.commit') && ctx.checkpointId !== undefined) {
      const key = `${e.participant}\u0000${ctx.checkpointId}`
      const attempt = (this.#commits.get(key) ?? 0) + 1
      this.#commits.set(key, attempt)
      payload['attempt'] = attempt
    }
    if (type === 'resources.restore' && typeof answer['sessions'] === 'number')
      payload['activated'] = answer['sessions']
    if (type === 'run.dispatch') {
      payload['environment'] = textOf(body['environment']) ?? null
      payload['continued'] = (intOf(body['attempt_index']) ?? 0) > 0
      payload['generation'] = intOf(objectOf(answer['receipt'])['execution_generation']) ?? null
      if (typeof answer['reward'] === 'number') payload['reward'] = answer['reward']
    }
    if (type === 'model.request') {
      const callId =
        header(e, 'response', 'x-nemo-gym-model-call-id') ?? textOf(answer['model_call_id'])
      payload['model_call_id'] = callId ?? null
      payload['parent_call_id'] = textOf(answer['parent_call_id']) ?? null
      payload['relay'] = answer['relay'] === true
    }
    if (type === 'env.start' || type === 'env.request' || type === 'env.verify') {
      payload['status'] = e.status ?? 0
      const revision = intOf(header(e, 'response', 'x-nemo-gym-resource-state-revision'))
      payload['revision'] = revision ?? null
      payload['success'] = e.status !== null && e.status >= 200 && e.status < 300
      if (type === 'env.verify' && typeof answer['reward'] === 'number')
        payload['reward'] = answer['reward']
    }
  }
}

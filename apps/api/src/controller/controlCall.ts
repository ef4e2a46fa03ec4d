import type { Result } from '@cutover/core'
import { err, ok } from '@cutover/core'
import type { CutoverError, ErrorCode } from '@cutover/core/contracts'
import { ERROR_CODES, cutoverError } from '@cutover/core/contracts'
import { errorCodeOf, fetchJson } from '../control/fetchJson.ts'

/** One participant of a fleet the HTTP controller drives. */
export interface ParticipantEndpoint {
  /** `agent`, `policy_model`, `resources_<env>`. */
  readonly participant: string
  readonly url: string
}

/**
 * Every control call's answer, in the order sent (the `cutover checkpoint` output and fleet traces
 * read it).
 */
export interface ControlCallRecord {
  readonly participant: string
  readonly url: string
  readonly endpoint: string
  readonly status: number | null
  readonly code: string
  readonly sent_at: number
  readonly answered_at: number
}

/** How every controller message names a call: `participant (url) METHOD /ng-control/v1/path`. */
export const callSite = (
  target: ParticipantEndpoint,
  method: 'GET' | 'POST',
  endpoint: string,
): string => `${target.participant} (${target.url}) ${method} /ng-control/v1/${endpoint}`

/**
 * Sends one control request (`Authorization: Bearer <token>`) and maps the answer to a `Result`:
 * 2xx → its JSON body; an error envelope → its code; transport failures, non-JSON or oversized
 * (> 1 MiB) answers → `transport_error` / `invalid_response` / `response_too_large`. Every error
 * message names the participant, the endpoint, the HTTP status and the code.
 */
export async function controlCall<T>(
  target: ParticipantEndpoint,
  token: string,
  method: 'GET' | 'POST',
  endpoint: string,
  body: unknown,
  record: (r: ControlCallRecord) => void,
  timeoutMs = 120_000,
): Promise<Result<T, CutoverError>> {
  const sent = Date.now()
  const answer = await fetchJson(`${target.url}/ng-control/v1/${endpoint}`, {
    method,
    body,
    headers: { authorization: `Bearer ${token}` },
    timeoutMs,
  })
  const where = callSite(target, method, endpoint)
  if (!answer.ok) {
    record({
      participant: target.participant,
      url: target.url,
      endpoint,
      status: null,
      code: answer.code,
      sent_at: sent,
      answered_at: Date.now(),
    })
    return err(cutoverError(answer.code, `${where}: ${answer.code}: ${answer.message}`))
  }
  const code = answer.status < 300 ? 'ok' : (errorCodeOf(answer.body) ?? 'invalid_response')
  record({
    participant: target.participant,
    url: target.url,
    endpoint,
    status: answer.status,
    code,
    sent_at: sent,
    answered_at: Date.now(),
  })
  if (answer.status < 300) {
    if (answer.body === null || typeof answer.body !== 'object')
      return err(
        cutoverError(
          'invalid_response',
          `${where}: HTTP ${answer.status}: the answer is not a JSON object`,
        ),
      )
    return ok(answer.body as T)
  }
  const known = (ERROR_CODES as readonly string[]).includes(code)
    ? (code as ErrorCode)
    : 'invalid_response'
  const detail = (answer.body as { error?: { message?: unknown } } | null)?.error?.message
  return err(
    cutoverError(
      known,
      `${where}: HTTP ${answer.status} ${code}${typeof detail === 'string' ? `: ${detail}` : ''}`,
    ),
  )
}

import type { ResourcesParticipant } from '@cutover/core'
import type { GymHost, GymReply } from './GymHost.ts'

/**
 * Response header carrying the session's state revision after the request
 * (docs/protocol.md §2.2).
 */
export const REVISION_HEADER = 'x-nemo-gym-resource-state-revision'

/**
 * Sessions through the resources participant (docs/protocol.md §3.4, §4.4, §7.1), so the HTTP
 * routes get the same binding, revisions, idempotent receipts, admission pause and stale-attempt
 * fencing as the simulator's participants.
 */
export function createParticipantGymHost<S>(participant: ResourcesParticipant<S>): GymHost {
  return {
    handle(request): GymReply {
      const response = participant.handleRequest({
        path: request.path,
        method: 'POST',
        body: request.body,
        sessionId: request.cookieSessionId,
        ...(request.identity === undefined ? {} : { identity: request.identity }),
        ...(request.requestId === undefined ? {} : { requestId: request.requestId }),
        ...(request.expectedRevision === undefined
          ? {}
          : { expectedRevision: request.expectedRevision }),
        ...(request.query === undefined ? {} : { query: request.query }),
        ...(request.cookies === undefined ? {} : { cookies: request.cookies }),
        ...(request.encodeAnswer === undefined ? {} : { encodeAnswer: request.encodeAnswer }),
      })
      const headers: [string, string][] =
        response.revision === null ? [] : [[REVISION_HEADER, String(response.revision)]]
      if (response.code !== null) {
        const error = (response.body as { error?: { message?: unknown } } | null)?.error
        return {
          kind: 'refused',
          code: response.code,
          message: typeof error?.message === 'string' ? error.message : response.code,
          headers,
        }
      }
      // A recorded receipt: the first answer and every replay send the same bytes (§8).
      if (response.bytes !== undefined)
        return { kind: 'raw', status: response.status, bytes: response.bytes, headers }
      return { kind: 'json', status: response.status, body: response.body, headers }
    },
  }
}

import type { ExecutionIdentity } from '@cutover/core'
import type { ErrorCode, JsonValue } from '@cutover/core/contracts'

/** One data-plane request to an environment, after the edge parsed cookie, prefix and identity. */
export interface GymRequest {
  /** Route inside the environment, e.g. `/reset`, `/email_send_email` (prefix stripped). */
  readonly path: string
  /** Parsed JSON body; undefined when the request had none. */
  readonly body: unknown
  /** The cookie's session id (minted by the edge when the request had none). */
  readonly cookieSessionId: string
  readonly identity: ExecutionIdentity | undefined
  /** `x-nemo-gym-resource-request-id` (docs/protocol.md §2.2). */
  readonly requestId: string | undefined
  /** `x-nemo-gym-expected-resource-state-revision`. */
  readonly expectedRevision: number | undefined
  /**
   * The raw query string (without `?`) and every request cookie: part of a mutation's input digest.
   */
  readonly query?: string
  readonly cookies?: readonly (readonly [string, string])[]
  /** The bytes the edge sends for a successful answer: what a mutation receipt records (§8). */
  readonly encodeAnswer?: (status: number, body: JsonValue) => Uint8Array
}

/** The answer: the reference server's own shape, or a protocol refusal with its code. */
export type GymReply =
  | {
      readonly kind: 'json'
      readonly status: number
      readonly body: JsonValue
      readonly headers: readonly (readonly [string, string])[]
    }
  | {
      /**
       * A mutation with a receipt, first answer or replay: the recorded bytes, sent as they were.
       */
      readonly kind: 'raw'
      readonly status: number
      readonly bytes: Uint8Array
      readonly headers: readonly (readonly [string, string])[]
    }
  | {
      readonly kind: 'refused'
      readonly code: ErrorCode
      readonly message: string
      readonly headers: readonly (readonly [string, string])[]
    }

/**
 * Where an environment's sessions live for the HTTP edge: maps a request to a reply and keeps the
 * session map. The edge (cookies, prefix, identity headers, bodies) stays in `createGymApp`.
 */
export interface GymHost {
  handle(request: GymRequest): GymReply
}

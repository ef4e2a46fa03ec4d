import type { EnvName } from '../contracts/environments.ts'
import type { CutoverError } from '../contracts/errors.ts'
import type { JsonValue } from '../json.ts'
import type { Result } from '../result.ts'

/** A reference server's HTTP answer: status and JSON body, exactly as NeMo Gym would send it. */
export interface EnvResponse {
  readonly status: number
  readonly body: JsonValue
}

/** docs/protocol.md §7.1 `checkpoint_route_kind(path, method)`. */
export type RouteKind = 'untracked' | 'start' | 'terminal' | 'mutation'

/** What one handled request leaves behind. */
export interface EnvHandleResult<TSession> {
  readonly response: EnvResponse
  /** The session after the request; undefined when there is none (never created, or deleted). */
  readonly session: TSession | undefined
  /**
   * True when the handler declared terminal intent and closed the session (Gymnasium terminal
   * `/step`).
   */
  readonly closed?: boolean
}

/**
 * One environment as pure session logic over plain data, so the simulator and the HTTP server
 * drive the same code. The caller owns the session map (keyed by cookie or execution identity);
 * the server only maps (route, body, session) to (response, next session).
 */
export interface EnvironmentServer<TSession> {
  readonly name: EnvName
  /** checkpoint_route_kind(path, method) */
  routeKind(path: string, method: string): RouteKind
  /**
   * Handle one POST route for one session (session undefined = none yet). Pure: never mutates the
   * session it is given (copy-on-write), and never throws for bad input: invalid bodies get
   * FastAPI's 422 `{detail:[...]}`, unknown routes 404 `{detail:"Not Found"}`, and the
   * environment's own errors their reference shapes.
   */
  handle(path: string, body: unknown, session: TSession | undefined): EnvHandleResult<TSession>
  /** The checkpoint codec (adapter). */
  readonly codec: CheckpointCodec<TSession>
}

/** docs/protocol.md §7.2: how one environment's session state crosses a checkpoint. */
export interface CheckpointCodec<TSession> {
  /** Opt-in per env class; the base default is false (docs/protocol.md §7.1). */
  readonly enabled: boolean
  readonly stateSchemaVersion: number
  /** A JSON-safe deep copy of the session; non-JSON-safe state fails with a clear error. */
  exportState(session: TSession): Result<JsonValue, CutoverError>
  /** Validates and rebuilds a session; used by restoreCheckpointStates for all-or-nothing sets. */
  restoreState(state: JsonValue): Result<TSession, CutoverError>
  /** One-line summary for the UI, e.g. "[8, A] = 19 vs 8". */
  describe(session: TSession): string
  /**
   * `retire_checkpoint_state` (docs/protocol.md §7.1): the adapter releases a retired execution's
   * state (the participant calls it under the session lock before dropping the session). Optional
   * here: the environments Cutover ships hold nothing outside the session value (§10.4).
   */
  retireState?(session: TSession): Result<void, CutoverError>
}

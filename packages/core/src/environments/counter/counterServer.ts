import { cutoverError } from '../../contracts/errors.ts'
import type { JsonValue } from '../../json.ts'
import { err, ok } from '../../result.ts'
import { checkpointRouteKind } from '../checkpointRouteKind.ts'
import type { CheckpointCodec, EnvironmentServer, EnvHandleResult } from '../EnvironmentServer.ts'
import type { ValidationIssue } from '../gymnasium/fastapiValidation.ts'
import {
  isRecord,
  laxInt,
  NOT_FOUND,
  objectBody,
  requireObjectField,
  unprocessable,
} from '../gymnasium/fastapiValidation.ts'

/** Session-state counter (ENVIRONMENTS.md §3): one integer per session. */
export interface CounterSession {
  readonly counter: number
}

/** The counter's codec (PROTOCOL.md §7.2): `{counter: int}`. */
export const counterCodec: CheckpointCodec<CounterSession> = {
  enabled: true,
  stateSchemaVersion: 1,
  exportState: (session) => ok({ counter: session.counter }),
  restoreState: (state) => {
    if (
      !isRecord(state) ||
      Object.keys(state).length !== 1 ||
      typeof state['counter'] !== 'number' ||
      !Number.isSafeInteger(state['counter'])
    ) {
      return err(
        cutoverError('invalid_request', 'counter state must be {"counter": <safe integer>}'),
      )
    }
    return ok({ counter: state['counter'] })
  },
  describe: (session) => `count ${session.counter}`,
}

/**
 * `StatefulCounterResourcesServer`: `/seed_session` (setdefault, never overwrites),
 * `/increment_counter`, `/get_counter_value` (creates at 0), `/verify` (reward 1.0 when the count
 * equals `expected_count`; state kept).
 */
export function createCounterServer(): EnvironmentServer<CounterSession> {
  return {
    name: 'counter',
    routeKind: (path, method) => checkpointRouteKind(path, method),
    codec: counterCodec,
    handle(path, rawBody, session): EnvHandleResult<CounterSession> {
      const same = (body: JsonValue, status = 200) => ({ response: { status, body }, session })
      if (
        path !== '/seed_session' &&
        path !== '/increment_counter' &&
        path !== '/get_counter_value' &&
        path !== '/verify'
      )
        return same(NOT_FOUND.body, NOT_FOUND.status)
      if (path === '/get_counter_value') {
        // No body model: FastAPI reads nothing, so any body is accepted.
        const current = session ?? { counter: 0 }
        return { response: { status: 200, body: { count: current.counter } }, session: current }
      }
      const parsed = objectBody(rawBody)
      if (!parsed.ok) return { response: parsed.response, session }
      const body = parsed.value
      const issues: ValidationIssue[] = []
      if (path === '/seed_session') {
        const initial = laxInt(body, 'initial_count', issues, true)
        if (initial === undefined) return { response: unprocessable(issues), session }
        return {
          response: { status: 200, body: {} },
          session: session ?? { counter: Number(initial) },
        }
      }
      if (path === '/increment_counter') {
        const count = laxInt(body, 'count', issues, true)
        if (count === undefined) return { response: unprocessable(issues), session }
        return {
          response: { status: 200, body: { success: true } },
          session: { counter: (session?.counter ?? 0) + Number(count) },
        }
      }
      requireObjectField(body, 'responses_create_params', issues)
      requireObjectField(body, 'response', issues)
      const expected = laxInt(body, 'expected_count', issues, true)
      if (issues.length > 0 || expected === undefined)
        return { response: unprocessable(issues), session }
      const reward = session !== undefined && BigInt(session.counter) === expected ? 1.0 : 0.0
      return {
        response: {
          status: 200,
          body: {
            responses_create_params: body['responses_create_params'] ?? null,
            response: body['response'] ?? null,
            reward,
          },
        },
        session,
      }
    },
  }
}

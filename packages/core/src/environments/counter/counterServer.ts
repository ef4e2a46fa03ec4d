import { cutoverError } from '../../contracts/errors.ts'
import type { JsonValue } from '../../json.ts'
import { err, ok } from '../../result.ts'
import type { PyInt } from '../pyjson/pyValues.ts'
import { asJsonValue, intValue, exactInt } from '../pyjson/pyValues.ts'
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

/**
 * Session-state counter (docs/environments.md §3): one Python int per session, exact at any size (a
 * plain number inside 2^53, a `PyInt` beyond).
 */
export interface CounterSession {
  readonly counter: number | PyInt
}

const countOf = (session: CounterSession | undefined): bigint =>
  intValue(session?.counter ?? 0) ?? 0n

/**
 * The counter's codec (docs/protocol.md §7.2): `{counter: int}`, the int a JSON number inside the
 * safe range and a decimal string beyond it, so a snapshot keeps every digit through JSON.
 */
export const counterCodec: CheckpointCodec<CounterSession> = {
  enabled: true,
  stateSchemaVersion: 1,
  exportState: (session) => {
    const n = countOf(session)
    return ok({ counter: typeof exactInt(n) === 'number' ? Number(n) : n.toString() })
  },
  restoreState: (state) => {
    const bad = () =>
      err(
        cutoverError(
          'invalid_request',
          'counter state must be {"counter": <safe integer, or a decimal string beyond 2^53>}',
        ),
      )
    if (!isRecord(state) || Object.keys(state).length !== 1) return bad()
    const v = state['counter']
    if (typeof v === 'number') return Number.isSafeInteger(v) ? ok({ counter: v }) : bad()
    if (typeof v !== 'string' || !/^-?(0|[1-9][0-9]*)$/.test(v)) return bad()
    const counter = exactInt(BigInt(v))
    // One encoding per value: a safe integer is written as a number, never as a string.
    return typeof counter === 'number' ? bad() : ok({ counter })
  },
  describe: (session) => `count ${countOf(session)}`,
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
        return {
          response: { status: 200, body: { count: asJsonValue(current.counter) } },
          session: current,
        }
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
          session: session ?? { counter: exactInt(initial) },
        }
      }
      if (path === '/increment_counter') {
        const count = laxInt(body, 'count', issues, true)
        if (count === undefined) return { response: unprocessable(issues), session }
        return {
          response: { status: 200, body: { success: true } },
          session: { counter: exactInt(countOf(session) + count) },
        }
      }
      requireObjectField(body, 'responses_create_params', issues)
      requireObjectField(body, 'response', issues)
      const expected = laxInt(body, 'expected_count', issues, true)
      if (issues.length > 0 || expected === undefined)
        return { response: unprocessable(issues), session }
      const reward = session !== undefined && countOf(session) === expected ? 1.0 : 0.0
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

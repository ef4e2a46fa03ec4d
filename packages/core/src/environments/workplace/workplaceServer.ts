import type { JsonValue } from '../../json.ts'
import { checkpointRouteKind } from '../checkpointRouteKind.ts'
import type { EnvironmentServer, EnvHandleResult } from '../EnvironmentServer.ts'
import type { ValidationIssue } from '../gymnasium/fastapiValidation.ts'
import {
  isRecord,
  NOT_FOUND,
  objectBody,
  requireObjectField,
  unprocessable,
} from '../gymnasium/fastapiValidation.ts'
import { routeToolCall } from './routeToolCall.ts'
import { verifyWorkplace } from './verifyWorkplace.ts'
import type { WorkplaceCodecOptions } from './workplaceCodec.ts'
import { createWorkplaceCodec } from './workplaceCodec.ts'
import type { WorkplaceBase, WorkplaceSession } from './WorkplaceSession.ts'
import { freshSession } from './WorkplaceSession.ts'

const VERIFY_FIELDS = [
  'responses_create_params',
  'response',
  'ground_truth',
  'id',
  'category',
  'environment_name',
] as const
const NOT_SEEDED = {
  status: 400,
  body: { detail: 'Session not initialized. Please call seed_session first.' },
}

/**
 * `WorkbenchResourcesServer` (docs/environments.md §4.1): `/seed_session` builds a fresh
 * environment (overwriting any), `/verify` replays `response.output` function calls against
 * `ground_truth` on fresh state, and every other `POST /<tool>` runs the tool with route semantics.
 * `/aggregate_metrics` is left to the HTTP layer (404 here).
 */
export function createWorkplaceServer(
  base: WorkplaceBase,
  codecOptions: WorkplaceCodecOptions = {},
): EnvironmentServer<WorkplaceSession> {
  return {
    name: 'workplace',
    routeKind: (path, method) => checkpointRouteKind(path, method),
    codec: createWorkplaceCodec(base, codecOptions),
    handle(path, rawBody, session): EnvHandleResult<WorkplaceSession> {
      const name = path.startsWith('/') ? path.slice(1) : path
      if (name === '' || name.includes('/') || name === 'aggregate_metrics')
        return { response: NOT_FOUND, session }
      const parsed = objectBody(rawBody)
      if (!parsed.ok) return { response: parsed.response, session }
      const body = parsed.value
      if (name === 'seed_session')
        return { response: { status: 200, body: {} }, session: freshSession(base) }
      if (name === 'verify') {
        const issues: ValidationIssue[] = []
        requireObjectField(body, 'responses_create_params', issues)
        requireObjectField(body, 'response', issues)
        const gt = body['ground_truth']
        if (gt === undefined)
          issues.push({
            type: 'missing',
            loc: ['body', 'ground_truth'],
            msg: 'Field required',
            input: body,
          })
        else if (typeof gt !== 'string' && !Array.isArray(gt))
          issues.push({
            type: 'list_type',
            loc: ['body', 'ground_truth'],
            msg: 'Input should be a valid list',
            input: gt,
          })
        if (issues.length > 0) return { response: unprocessable(issues), session }
        const response = body['response'] as { [k: string]: JsonValue }
        const output = Array.isArray(response['output']) ? response['output'] : []
        const predicted = output.filter(
          (item) => isRecord(item) && item['type'] === 'function_call',
        )
        const reward = verifyWorkplace(base, predicted, gt)
        // WorkbenchVerifyRequest ignores undeclared fields, so the response echoes only the
        // declared ones.
        const echoed: { [k: string]: JsonValue } = {}
        for (const key of VERIFY_FIELDS) if (body[key] !== undefined) echoed[key] = body[key]
        return { response: { status: 200, body: { ...echoed, reward } }, session }
      }
      if (session === undefined) return { response: NOT_SEEDED, session }
      const r = routeToolCall(base, session, name, body)
      return { response: { status: 200, body: { output: r.output } }, session: r.session }
    },
  }
}

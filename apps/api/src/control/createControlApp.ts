import { Hono } from 'hono'
import type { Context } from 'hono'
import type { z } from 'zod'
import type { CutoverError } from '@cutover/core/contracts'
import { API_BODY_LIMIT, limitBody } from '../http/bodyLimits.ts'
import { cutoverErrorResponse, errorResponse } from '../http/errorResponse.ts'
import { readValidJson } from '../http/jsonBody.ts'
import { bearerAuthorized } from './bearerAuthorized.ts'

/**
 * The base of every participant's control plane (`/ng-control/v1`, docs/protocol.md §3): requests
 * without `Authorization: Bearer <token>` are 401 `unauthorized` before any route, and bodies are
 * held to the API limit.
 */
export function createControlApp(token: string): Hono {
  const app = new Hono()
  app.use('*', async (c, next) => {
    if (!bearerAuthorized(c, token))
      return errorResponse(
        c,
        'unauthorized',
        'control routes need Authorization: Bearer <CUTOVER_CONTROL_TOKEN>',
      )
    return next()
  })
  app.use('*', limitBody(API_BODY_LIMIT))
  return app
}

/** A control operation's answer: its result as JSON, or its refusal in the error envelope. */
export function controlReply(
  c: Context,
  result: { ok: true; value: unknown } | { ok: false; error: CutoverError },
): Response {
  return result.ok ? c.json(result.value as object) : cutoverErrorResponse(c, result.error)
}

/** A control operation's result: the participant's answer or refusal. */
export type ControlResult = { ok: true; value: unknown } | { ok: false; error: CutoverError }

/**
 * `POST path` of a control plane: its body checked against `schema` (400 naming `<operation> body`
 * otherwise), then `run` — whose result is replied with `controlReply`, or a response of its own.
 */
export function controlOperation<S extends z.ZodType>(
  app: Hono,
  path: string,
  schema: S,
  run: (body: z.infer<S>, c: Context) => ControlResult | Response,
): void {
  const what = `${path.slice(path.lastIndexOf('/') + 1)} body`
  app.post(path, async (c) => {
    const body = await readValidJson(c, schema, what)
    if (!body.ok) return cutoverErrorResponse(c, body.error)
    const result = run(body.value, c)
    return result instanceof Response ? result : controlReply(c, result)
  })
}

import { Hono } from 'hono'
import type { Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { getCookie, setCookie } from 'hono/cookie'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { EnvName, GymRouteModel, PyJson, PyType } from '@cutover/core'
import { encodePyJson, isPyDict, validateRequestBody, withPlainFloats } from '@cutover/core'
import type { JsonValue } from '@cutover/core/contracts'
import { errorResponse } from '../http/errorResponse.ts'
import { GYM_BODY_LIMIT } from '../http/bodyLimits.ts'
import { ROLLOUT_ID_PATTERN, readExecutionIdentity } from '../control/executionIdentity.ts'
import { SESSION_ID_PATTERN, gymCookieName } from './gymCookie.ts'
import type { GymHost } from './GymHost.ts'
import { AGGREGATE_METRICS_REQUEST } from './aggregateMetrics.ts'
import { GYM_ROUTES } from './gymRoutes.ts'
import { readFastApiBody } from './readFastApiBody.ts'

/** What one environment's Gym-compatible sub-app needs. */
export interface GymAppOptions {
  readonly env: EnvName
  readonly host: GymHost
  /** Where the sub-app is mounted (`/gym/blackjack` in the main server, `` under `cutover gym`). */
  readonly mountPath: string
  /** Mints a session id for a request without a (valid) cookie. */
  readonly newSessionId: () => string
  /** Extra routes under `/ng-control/v1/` (mounted only with a control token). */
  readonly control?: Hono
}

const json = (c: Context, status: number, body: JsonValue): Response =>
  c.json(body, status as ContentfulStatusCode)

/** A JSON answer in the bytes Starlette's JSONResponse sends (NaN in it is the reference's 500). */
function pyJson(c: Context, status: number, body: PyJson): Response {
  const text = encodePyJson(body)
  if (text.ok)
    return c.body(text.value, status as ContentfulStatusCode, {
      'content-type': 'application/json',
    })
  return c.body(JSON.stringify(text.error), 500, { 'content-type': 'application/json' })
}

/**
 * The bytes a successful answer goes out as, for a mutation receipt to record (§8: the first answer
 * and every replay send the same bytes): through the route's response model, in Python's JSON.
 * An answer that does not fit its model or cannot be encoded falls back to plain JSON.
 */
function answerEncoder(
  model: GymRouteModel | undefined,
  validated: PyJson | undefined,
): (status: number, body: JsonValue) => Uint8Array {
  return (status, body) => {
    const answer = serializeAnswer(model, validated, status, body as PyJson)
    const text = answer === undefined ? undefined : encodePyJson(answer)
    return new TextEncoder().encode(text?.ok === true ? text.value : JSON.stringify(body))
  }
}

/** Percent-decodes one path segment; undefined when the encoding is broken. */
function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

const notFound = (c: Context) => json(c, 404, { detail: 'Not Found' })

/**
 * One environment as a reference NeMo Gym resources server (docs/environments.md §0,
 * docs/http-api.md): the reference routes, bodies and error shapes (not the API envelope), the
 * session id in the `cutover_<env>_session` cookie scoped to the mount path, the
 * `/ng-rollout/<capture_key>/` prefix, and the execution identity headers (409
 * `execution_identity_mismatch`, docs/protocol.md §2.1).
 */
export function createGymApp(options: GymAppOptions): Hono {
  const { env, host, mountPath } = options
  const routes = GYM_ROUTES[env]
  const cookieName = gymCookieName(env)
  const app = new Hono()

  // The control plane first: its own body limit answers in the envelope (a Gym route's 413 is the
  // reference's `detail`, which a controller cannot read as a protocol code).
  if (options.control !== undefined) app.route('/ng-control/v1', options.control)
  app.use(
    '*',
    bodyLimit({
      maxSize: GYM_BODY_LIMIT,
      onError: (c) =>
        json(c, 413, { detail: `Request body exceeds the limit of ${GYM_BODY_LIMIT} bytes` }),
    }),
  )

  app.all('*', async (c) => {
    let path = c.req.path.slice(mountPath.length) || '/'
    let pathCaptureKey: string | undefined
    const prefixed = /^\/ng-rollout\/([^/]+)(\/.*)$/.exec(path)
    if (prefixed !== null) {
      const key = decodeSegment(prefixed[1] ?? '')
      // A prefix that is not a capture key is not the rollout prefix: the route does not exist.
      if (key === undefined || !ROLLOUT_ID_PATTERN.test(key)) return notFound(c)
      pathCaptureKey = key
      path = prefixed[2] ?? '/'
    }
    if (path.startsWith('/ng-control/')) return notFound(c)
    const identity = readExecutionIdentity((name) => c.req.header(name), pathCaptureKey)
    if (!identity.ok) return errorResponse(c, identity.error.code, identity.error.message)

    const method = c.req.method
    if (method === 'GET' || method === 'HEAD') {
      if (path === '/') return json(c, 200, { status: 'ok' })
      if (path === '/reverify_mode' && routes.reverifyMode !== undefined)
        return json(c, 200, routes.reverifyMode)
    }
    const known = routes.isRoute(path)
    if (method !== 'POST') {
      if (
        known ||
        path === '/' ||
        (path === '/reverify_mode' && routes.reverifyMode !== undefined) ||
        path === '/aggregate_metrics'
      )
        return json(c, 405, { detail: 'Method Not Allowed' })
      return notFound(c)
    }
    if (path === '/aggregate_metrics') {
      const body = await readValidatedBody(c, AGGREGATE_METRICS_REQUEST)
      if (!body.ok) return body.response
      const metrics = routes.aggregateMetrics(body.value)
      return pyJson(c, metrics.status, metrics.body)
    }
    if (!known) return notFound(c)

    const protocolHeaders = readProtocolHeaders((name) => c.req.header(name))
    if (typeof protocolHeaders === 'string')
      return errorResponse(c, 'invalid_request', protocolHeaders)
    const model = routes.models(path)
    // FastAPI validates the body model before the handler runs; a route without one never reads its
    // body.
    let validated: PyJson | undefined
    let envBody: PyJson | undefined
    if (model?.request !== undefined) {
      const body = await readValidatedBody(c, model.request)
      if (!body.ok) return body.response
      validated = body.value
      envBody = withPlainFloats(body.raw)
    }
    const cookie = getCookie(c, cookieName)
    const sessionId =
      cookie !== undefined && SESSION_ID_PATTERN.test(cookie) ? cookie : options.newSessionId()
    const query = new URL(c.req.url).search.replace(/^\?/, '')
    const cookies = Object.entries(getCookie(c))
    const encodeAnswer = answerEncoder(model, validated)
    const reply = host.handle({
      path,
      body: envBody,
      cookieSessionId: sessionId,
      identity: identity.value,
      ...protocolHeaders,
      query,
      cookies,
      encodeAnswer,
    })
    if (sessionId !== cookie)
      setCookie(c, cookieName, sessionId, {
        path: mountPath === '' ? '/' : mountPath,
        httpOnly: true,
        sameSite: 'Lax',
      })
    for (const [name, value] of reply.headers) c.header(name, value)
    if (reply.kind === 'refused') return errorResponse(c, reply.code, reply.message)
    if (reply.kind === 'raw')
      return c.body(new Uint8Array(reply.bytes), reply.status as ContentfulStatusCode, {
        'content-type': 'application/json',
      })
    const answer = serializeAnswer(model, validated, reply.status, reply.body as PyJson)
    // FastAPI's response validation failing is its plain-text 500.
    if (answer === undefined) return c.text('Internal Server Error', 500)
    return pyJson(c, reply.status, answer)
  })
  return app
}

/**
 * `x-nemo-gym-resource-request-id` (1–512 printable ASCII bytes) and
 * `x-nemo-gym-expected-resource-state-revision` (a non-negative integer); a message when malformed.
 */
function readProtocolHeaders(
  header: (name: string) => string | undefined,
): { requestId: string | undefined; expectedRevision: number | undefined } | string {
  const requestId = header('x-nemo-gym-resource-request-id')
  if (requestId !== undefined && !/^[\x20-\x7e]{1,512}$/.test(requestId))
    return 'x-nemo-gym-resource-request-id must be 1 to 512 printable ASCII characters'
  const expected = header('x-nemo-gym-expected-resource-state-revision')
  if (expected !== undefined && !/^(0|[1-9][0-9]{0,14})$/.test(expected))
    return 'x-nemo-gym-expected-resource-state-revision must be a non-negative integer'
  return { requestId, expectedRevision: expected === undefined ? undefined : Number(expected) }
}

/** The request body as FastAPI reads and validates it: the model's dump, or the 400/422 answer. */
async function readValidatedBody(
  c: Context,
  model: PyType,
): Promise<{ ok: true; value: PyJson; raw: PyJson } | { ok: false; response: Response }> {
  const read = readFastApiBody(
    new Uint8Array(await c.req.arrayBuffer()),
    c.req.header('content-type'),
  )
  if (!read.ok) return { ok: false, response: pyJson(c, read.refusal.status, read.refusal.body) }
  const validated = validateRequestBody(model, read.value)
  if (!validated.ok) return { ok: false, response: pyJson(c, 422, validated.error) }
  return { ok: true, value: validated.value, raw: read.value ?? null }
}

/**
 * The handler's answer through the route's `response_model` (a success only, as FastAPI does):
 * undefined when it does not fit the model. A `/verify` answer is built from the validated request.
 */
function serializeAnswer(
  model: GymRouteModel | undefined,
  validated: PyJson | undefined,
  status: number,
  body: PyJson,
): PyJson | undefined {
  if (status >= 400 || model?.response === undefined) return body
  const input =
    model.answerFromRequest === true && isPyDict(validated) && isPyDict(body)
      ? { ...body, ...validated }
      : body
  const r = model.response.validate(input, ['response'])
  return r.ok ? r.value : undefined
}

import { Hono } from 'hono'
import type { Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { getCookie, setCookie } from 'hono/cookie'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { EnvName } from '@cutover/core'
import type { JsonValue } from '@cutover/core/contracts'
import { errorResponse } from '../http/errorResponse.ts'
import { GYM_BODY_LIMIT } from '../http/bodyLimits.ts'
import { ROLLOUT_ID_PATTERN, readExecutionIdentity } from './executionIdentity.ts'
import { SESSION_ID_PATTERN, gymCookieName } from './gymCookie.ts'
import type { GymHost } from './GymHost.ts'
import { GYM_ROUTES } from './gymRoutes.ts'

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

const json = (c: Context, status: number, body: JsonValue): Response => c.json(body, status as ContentfulStatusCode)

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
 * One environment as a reference NeMo Gym resources server (ENVIRONMENTS.md §0, CONTRACTS.md §7):
 * the reference routes, bodies and error shapes (not the API envelope), the session id in the
 * `cutover_<env>_session` cookie scoped to the mount path, the `/ng-rollout/<capture_key>/` prefix,
 * and the execution identity headers (409 `execution_identity_mismatch`, PROTOCOL.md §2.1).
 */
export function createGymApp(options: GymAppOptions): Hono {
  const { env, host, mountPath } = options
  const routes = GYM_ROUTES[env]
  const cookieName = gymCookieName(env)
  const app = new Hono()

  app.use(
    '*',
    bodyLimit({
      maxSize: GYM_BODY_LIMIT,
      onError: (c) => json(c, 413, { detail: `Request body exceeds the limit of ${GYM_BODY_LIMIT} bytes` }),
    }),
  )
  if (options.control !== undefined) app.route('/ng-control/v1', options.control)

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
      if (path === '/reverify_mode' && routes.reverifyMode !== undefined) return json(c, 200, routes.reverifyMode)
    }
    const known = routes.isRoute(path)
    if (method !== 'POST') {
      if (known || path === '/' || (path === '/reverify_mode' && routes.reverifyMode !== undefined) || path === '/aggregate_metrics') return json(c, 405, { detail: 'Method Not Allowed' })
      return notFound(c)
    }
    if (path === '/aggregate_metrics') {
      const body = await readGymJson(c)
      if (!body.ok) return json(c, 422, body.detail)
      const metrics = routes.aggregateMetrics(body.value)
      return json(c, metrics.status, metrics.body)
    }
    if (!known) return notFound(c)

    const protocolHeaders = readProtocolHeaders((name) => c.req.header(name))
    if (typeof protocolHeaders === 'string') return errorResponse(c, 'invalid_request', protocolHeaders)
    const body = await readGymJson(c)
    if (!body.ok) return json(c, 422, body.detail)
    const cookie = getCookie(c, cookieName)
    const sessionId = cookie !== undefined && SESSION_ID_PATTERN.test(cookie) ? cookie : options.newSessionId()
    const query = new URL(c.req.url).search.replace(/^\?/, '')
    const cookies = Object.entries(getCookie(c))
    const reply = host.handle({ path, body: body.value, cookieSessionId: sessionId, identity: identity.value, ...protocolHeaders, query, cookies })
    if (sessionId !== cookie) setCookie(c, cookieName, sessionId, { path: mountPath === '' ? '/' : mountPath, httpOnly: true, sameSite: 'Lax' })
    for (const [name, value] of reply.headers) c.header(name, value)
    if (reply.kind === 'refused') return errorResponse(c, reply.code, reply.message)
    if (reply.kind === 'raw') return c.body(new Uint8Array(reply.bytes), reply.status as ContentfulStatusCode, { 'content-type': 'application/json' })
    // The reference's exception middleware answers a handler crash with `repr(e)` as a plain body.
    if (reply.status >= 500 && typeof reply.body === 'string') return c.body(reply.body, reply.status as ContentfulStatusCode)
    return json(c, reply.status, reply.body)
  })
  return app
}

/**
 * `x-nemo-gym-resource-request-id` (1–512 printable ASCII bytes) and
 * `x-nemo-gym-expected-resource-state-revision` (a non-negative integer); a message when malformed.
 */
function readProtocolHeaders(header: (name: string) => string | undefined): { requestId: string | undefined; expectedRevision: number | undefined } | string {
  const requestId = header('x-nemo-gym-resource-request-id')
  if (requestId !== undefined && !/^[\x20-\x7e]{1,512}$/.test(requestId)) return 'x-nemo-gym-resource-request-id must be 1 to 512 printable ASCII characters'
  const expected = header('x-nemo-gym-expected-resource-state-revision')
  if (expected !== undefined && !/^(0|[1-9][0-9]{0,14})$/.test(expected)) return 'x-nemo-gym-expected-resource-state-revision must be a non-negative integer'
  return { requestId, expectedRevision: expected === undefined ? undefined : Number(expected) }
}

/** FastAPI's 422 for a body that is not JSON (`json_invalid`); an empty body reads as undefined. */
async function readGymJson(c: Context): Promise<{ ok: true; value: unknown } | { ok: false; detail: JsonValue }> {
  const text = await c.req.text()
  if (text.trim() === '') return { ok: true, value: undefined }
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch (error) {
    return {
      ok: false,
      detail: { detail: [{ type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', input: {}, ctx: { error: error instanceof Error ? error.message : 'Expecting value' } }] },
    }
  }
}

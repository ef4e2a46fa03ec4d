import type { MiddlewareHandler } from 'hono'
import { errorResponse } from './errorResponse.ts'

/** The methods that change state; a cross-site page must not be able to send any of them. */
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** True for `application/json`, with or without parameters (`; charset=utf-8`). */
const isJson = (contentType: string | undefined): boolean =>
  contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json'

/**
 * Refuses cross-site state changes under `/api/` (docs/security.md): a POST, PUT, PATCH or DELETE
 * must say `Content-Type: application/json` (which no page on another site can send without a CORS
 * preflight, which this server never grants), and an `Origin`, when present, must be the server's
 * own. Anything else is 403 `cross_origin_refused` before a handler runs, so nothing changes.
 * Reads and the Gym routes are untouched.
 */
export const refuseCrossSite = (): MiddlewareHandler => async (c, next) => {
  if (!STATE_CHANGING.has(c.req.method)) return next()
  const origin = c.req.header('origin')
  const own = new URL(c.req.url).origin
  if (origin !== undefined && origin !== own) {
    return errorResponse(
      c,
      'cross_origin_refused',
      `${c.req.method} from origin ${JSON.stringify(origin)} refused: only pages served by ${own} may change state`,
    )
  }
  if (!isJson(c.req.header('content-type'))) {
    return errorResponse(
      c,
      'cross_origin_refused',
      `${c.req.method} ${c.req.path} refused: state-changing requests must send Content-Type: application/json`,
    )
  }
  return next()
}

import type { MiddlewareHandler } from 'hono'
import { hideLocalPaths } from './hideLocalPaths.ts'

/**
 * The last guard against leaked paths: an error answer (4xx/5xx JSON, the envelope or a Gym
 * `detail`) that names the data directory or the home directory is rewritten with
 * `hideLocalPaths`. Handlers already phrase their messages without them; this catches what a
 * library's message (a file system error, say) would carry through.
 */
export const scrubErrorPaths =
  (dataDir: string): MiddlewareHandler =>
  async (c, next) => {
    await next()
    if (c.res.status < 400 || !(c.res.headers.get('content-type') ?? '').includes('json')) return
    const text = await c.res.clone().text()
    const clean = hideLocalPaths(text, dataDir)
    if (clean === text) return
    const headers = new Headers(c.res.headers)
    headers.delete('content-length')
    c.res = new Response(clean, { status: c.res.status, headers })
  }

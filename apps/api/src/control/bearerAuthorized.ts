import { createHash, timingSafeEqual } from 'node:crypto'
import type { Context } from 'hono'

const sha = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest()

/** True when the request carries `Authorization: Bearer <token>` (constant-time comparison). */
export function bearerAuthorized(c: Context, token: string): boolean {
  const header = c.req.header('authorization') ?? ''
  const match = /^Bearer (.+)$/.exec(header)
  return match !== null && timingSafeEqual(sha(match[1] ?? ''), sha(token))
}

import type { MiddlewareHandler } from 'hono'

/**
 * The Content-Security-Policy of the web app: only its own scripts, no plugins, no framing.
 * Styles allow inline because mermaid writes a `<style>` element and `style` attributes into each
 * diagram it draws; scripts never do (mermaid runs with `securityLevel: 'strict'`).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

/** Headers on every answer of the main server (docs/security.md). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
}

/** Adds `SECURITY_HEADERS` to each response that does not set them itself. */
export const securityHeaders = (): MiddlewareHandler => async (c, next) => {
  await next()
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    if (!c.res.headers.has(name)) c.res.headers.set(name, value)
  }
}

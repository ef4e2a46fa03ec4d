import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { errorResponse } from './errorResponse.ts'

/** Largest body `/api/*` and the control routes accept: a run config with 100 faults is ~5 KB. */
export const API_BODY_LIMIT = 64 * 1024

/**
 * Largest body a Gym route accepts. A Workplace `/verify` carries the 27 tool schemas plus the
 * model's response (~20 KB in the example tasks), so 4 MiB leaves ample room for long responses.
 */
export const GYM_BODY_LIMIT = 4 * 1024 * 1024

/** `bodyLimit` answering with the envelope: 413 `payload_too_large`, naming the bound. */
export const limitBody = (maxSize: number): MiddlewareHandler =>
  bodyLimit({
    maxSize,
    onError: (c) =>
      errorResponse(c, 'payload_too_large', `request body exceeds the limit of ${maxSize} bytes`),
  })

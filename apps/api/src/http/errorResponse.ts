import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { CutoverError, ErrorBody, ErrorCode } from '@cutover/core/contracts'
import { ERROR_STATUS } from './errorStatus.ts'

/** Replies with the contract error envelope and the status the code maps to. */
export function errorResponse(c: Context, code: ErrorCode, message: string): Response {
  const body: ErrorBody = { error: { code, message } }
  return c.json(body, ERROR_STATUS[code] as ContentfulStatusCode)
}

/** Same, for an error value produced by core. */
export const cutoverErrorResponse = (c: Context, error: CutoverError): Response =>
  errorResponse(c, error.code, error.message)

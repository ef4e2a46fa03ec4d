import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { CutoverError, ErrorCode } from '@cutover/core/contracts'
import { errorBody } from '@cutover/core/contracts'
import { ERROR_STATUS } from './errorStatus.ts'

/**
 * Admission refusals: the call changed nothing and may be re-issued after resume
 * (docs/protocol.md §3.1, §8).
 */
const RETRY_AFTER_ONE: readonly ErrorCode[] = ['checkpoint_parked']

/**
 * Replies with the contract error envelope (`errorBody`: code, message and its `detail` copy) and
 * the status the code maps to (admission refusals add `retry-after: 1`).
 */
export function errorResponse(c: Context, code: ErrorCode, message: string): Response {
  const body = errorBody(code, message)
  if (RETRY_AFTER_ONE.includes(code)) c.header('retry-after', '1')
  return c.json(body, ERROR_STATUS[code] as ContentfulStatusCode)
}

/** Same, for an error value produced by core. */
export const cutoverErrorResponse = (c: Context, error: CutoverError): Response =>
  errorResponse(c, error.code, error.message)

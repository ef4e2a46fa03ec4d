import { z } from 'zod'
import type { JsonValue } from '../json.ts'

/** How a body was kept in a recording: its size, and its digest when it was cut short. */
export interface RecordedBody {
  /** The body's full length in bytes, as it crossed the proxy. */
  readonly bytes: number
  /** The first bytes only were kept (the recording's bound); `sha256` is of the whole body. */
  readonly truncated: boolean
  /** SHA-256 of the whole body (hex), when it was truncated. */
  readonly sha256?: string
  /** How `request` / `response` holds it: parsed JSON, text, or base64 of bytes that are not. */
  readonly encoding: 'json' | 'text' | 'base64' | 'empty'
}

/**
 * One HTTP exchange of a recording (docs/recording.md): the shape of the real stack's recordings
 * (`participant, method, path, query, request, status, response, t`, and `ms`), plus what Cutover's
 * recorder adds (`t_end`, the monotonic times, `headers`, the bodies' sizes). `t` and `t_end` are
 * wall-clock seconds (Unix time) at the request's start and the answer's end; `status` is null when
 * no answer came (`transport_error` says why). Other fields (the real stack's `bridged_*`, `label`,
 * `seq`, `auth`) are kept as they are.
 */
export interface RecordedExchange {
  readonly participant: string
  readonly method: string
  readonly path: string
  readonly query: { readonly [key: string]: JsonValue }
  readonly request: JsonValue
  readonly status: number | null
  readonly response: JsonValue
  readonly t: number
  readonly t_end?: number
  /** The exchange's duration in milliseconds. */
  readonly ms?: number
  /** Monotonic milliseconds (the recorder's clock) at the start and the end. */
  readonly t_mono?: number
  readonly t_end_mono?: number
  /** The identity headers of the request and the answer (never `Authorization`). */
  readonly headers?: {
    readonly request?: { readonly [name: string]: string }
    readonly response?: { readonly [name: string]: string }
  }
  readonly transport_error?: string
  readonly request_body?: RecordedBody
  readonly response_body?: RecordedBody
  readonly [key: string]: unknown
}

const headerMap = z.record(z.string(), z.string())
const bodySchema = z.object({
  bytes: z.number().int().nonnegative(),
  truncated: z.boolean(),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  encoding: z.enum(['json', 'text', 'base64', 'empty']),
})

/**
 * A recording line, checked for what every reader relies on; bodies stay as they are (any JSON),
 * unknown fields are kept.
 */
export const recordedExchangeSchema = z.looseObject({
  participant: z.string().min(1).max(200),
  method: z.string().regex(/^[A-Za-z]{1,16}$/),
  path: z.string().startsWith('/').max(16_384),
  query: z.record(z.string(), z.unknown()),
  request: z.unknown(),
  status: z.number().int().min(100).max(999).nullable(),
  response: z.unknown(),
  t: z.number().finite(),
  t_end: z.number().finite().optional(),
  ms: z.number().finite().nonnegative().optional(),
  t_mono: z.number().finite().optional(),
  t_end_mono: z.number().finite().optional(),
  headers: z.object({ request: headerMap.optional(), response: headerMap.optional() }).optional(),
  transport_error: z.string().optional(),
  request_body: bodySchema.optional(),
  response_body: bodySchema.optional(),
})

/** The fields every line must have (docs/recording.md), in the order a message names them. */
export const REQUIRED_EXCHANGE_FIELDS = [
  'participant',
  'method',
  'path',
  'query',
  'request',
  'status',
  'response',
  't',
] as const

/** The wall-clock end of an exchange in seconds: `t_end`, else `t` plus its duration. */
export const exchangeEnd = (e: RecordedExchange): number => e.t_end ?? e.t + (e.ms ?? 0) / 1000

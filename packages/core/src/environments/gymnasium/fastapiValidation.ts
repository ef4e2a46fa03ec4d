import type { JsonValue } from '../../json.ts'
import type { EnvResponse } from '../EnvironmentServer.ts'

/** One pydantic v2 error entry as FastAPI returns it in a 422 body. */
export interface ValidationIssue {
  readonly type: string
  readonly loc: readonly (string | number)[]
  readonly msg: string
  readonly input: JsonValue
}

/** FastAPI's 422 response for invalid bodies: `{detail: [issues]}`. */
export function unprocessable(issues: readonly ValidationIssue[]): EnvResponse {
  return {
    status: 422,
    body: {
      detail: issues.map((i) => ({ type: i.type, loc: [...i.loc], msg: i.msg, input: i.input })),
    },
  }
}

/** The 404 FastAPI sends for a route the server does not register. */
export const NOT_FOUND: EnvResponse = { status: 404, body: { detail: 'Not Found' } }

/** A JSON object body, or the 422 FastAPI gives for anything else. */
export function objectBody(
  body: unknown,
):
  | { readonly ok: true; readonly value: Record<string, JsonValue> }
  | { readonly ok: false; readonly response: EnvResponse } {
  if (isRecord(body)) return { ok: true, value: body as Record<string, JsonValue> }
  return {
    ok: false,
    response: unprocessable([
      {
        type: 'model_attributes_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: toJson(body),
      },
    ]),
  }
}

/** Checks a required field is present and a JSON object (pydantic model field). */
export function requireObjectField(
  body: Record<string, JsonValue>,
  field: string,
  issues: ValidationIssue[],
): void {
  const v = body[field]
  if (v === undefined) issues.push(missing(field, body))
  else if (!isRecord(v))
    issues.push({
      type: 'model_attributes_type',
      loc: ['body', field],
      msg: 'Input should be a valid dictionary or object to extract fields from',
      input: v,
    })
}

/**
 * Pydantic v2 lax `int`: integers, integral floats, booleans and decimal strings; returns the
 * value as a bigint (Python ints are unbounded) or records the issue.
 */
export function laxInt(
  body: Record<string, JsonValue>,
  field: string,
  issues: ValidationIssue[],
  required: boolean,
): bigint | undefined {
  const v = body[field]
  if (v === undefined) {
    if (required) issues.push(missing(field, body))
    return undefined
  }
  const loc = ['body', field]
  if (typeof v === 'boolean') return v ? 1n : 0n
  if (typeof v === 'number') {
    if (Number.isInteger(v)) return BigInt(v)
    issues.push({
      type: 'int_from_float',
      loc,
      msg: 'Input should be a valid integer, got a number with a fractional part',
      input: v,
    })
    return undefined
  }
  if (typeof v === 'string') {
    const t = v.trim().replace(/_/g, '')
    if (/^[+-]?\d+$/.test(t)) return BigInt(t)
    issues.push({
      type: 'int_parsing',
      loc,
      msg: 'Input should be a valid integer, unable to parse string as an integer',
      input: v,
    })
    return undefined
  }
  issues.push({ type: 'int_type', loc, msg: 'Input should be a valid integer', input: v })
  return undefined
}

function missing(field: string, body: Record<string, JsonValue>): ValidationIssue {
  return { type: 'missing', loc: ['body', field], msg: 'Field required', input: body }
}

/** True for plain JSON objects (not arrays, not null). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function toJson(v: unknown): JsonValue {
  return v === undefined ? null : (v as JsonValue)
}

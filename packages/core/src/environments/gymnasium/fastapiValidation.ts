import type { JsonValue } from '../../json.ts'
import type { EnvResponse } from '../EnvironmentServer.ts'
import { pyIntType, pyModel } from '../pyjson/pydanticTypes.ts'
import type { PyJson } from '../pyjson/pyValues.ts'
import { intValue } from '../pyjson/pyValues.ts'

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

/**
 * Any JSON object: pydantic's model check without fields (its messages come from the model layer).
 */
const ANY_OBJECT = pyModel('Body', {}, { extra: 'allow' })

const objectIssues = (value: unknown, loc: readonly (string | number)[]): ValidationIssue[] => {
  const r = ANY_OBJECT.validate(toJson(value) as PyJson, loc)
  return r.ok ? [] : (r.issues as ValidationIssue[])
}

/** A JSON object body, or the 422 FastAPI gives for anything else. */
export function objectBody(
  body: unknown,
):
  | { readonly ok: true; readonly value: Record<string, JsonValue> }
  | { readonly ok: false; readonly response: EnvResponse } {
  if (isRecord(body)) return { ok: true, value: body as Record<string, JsonValue> }
  return { ok: false, response: unprocessable(objectIssues(body, ['body'])) }
}

/** Checks a required field is present and a JSON object (pydantic model field). */
export function requireObjectField(
  body: Record<string, JsonValue>,
  field: string,
  issues: ValidationIssue[],
): void {
  const v = body[field]
  if (v === undefined) issues.push(missing(field, body))
  else issues.push(...objectIssues(v, ['body', field]))
}

/**
 * Pydantic v2 lax `int` (`pyIntType`): the exact value as a bigint (Python ints are unbounded),
 * or undefined with the issue recorded.
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
  const r = pyIntType.validate(v as PyJson, ['body', field])
  if (!r.ok) {
    issues.push(...(r.issues as ValidationIssue[]))
    return undefined
  }
  return intValue(r.value)
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

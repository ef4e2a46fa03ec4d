import type { Context } from 'hono'
import type { z } from 'zod'
import type { CutoverError } from '@cutover/core/contracts'
import { cutoverError } from '@cutover/core/contracts'
import type { Result } from '@cutover/core'
import { err, ok } from '@cutover/core'

/**
 * Reads the request body as JSON. An empty body reads as `undefined` so schemas can say whether a
 * body is required; anything that is not JSON is `malformed_json` (never a thrown 500).
 */
export async function readJson(c: Context): Promise<Result<unknown, CutoverError>> {
  const text = await c.req.text()
  if (text.trim() === '') return ok(undefined)
  try {
    return ok(JSON.parse(text) as unknown)
  } catch (error) {
    return err(
      cutoverError(
        'malformed_json',
        `request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      ),
    )
  }
}

/**
 * One line naming every zod issue by its path, e.g. `rollouts: Too big: expected number to be
 * <=10000`; an issue of the whole value is named `root` (`(body)`, `(query)`).
 */
export function describeIssues(error: z.ZodError, root = '(body)'): string {
  return error.issues
    .slice(0, 10)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : root}: ${issue.message}`)
    .join('; ')
}

/** Validates a value with a zod schema; failures are `invalid_request` naming each issue. */
export function validate<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
): Result<z.infer<S>, CutoverError> {
  const parsed = schema.safeParse(value)
  if (parsed.success) return ok(parsed.data)
  const root = /\bquery\b/.test(what) ? '(query)' : '(body)'
  return err(
    cutoverError('invalid_request', `invalid ${what}: ${describeIssues(parsed.error, root)}`),
  )
}

/** Reads and validates a JSON body in one go. */
export async function readValidJson<S extends z.ZodType>(
  c: Context,
  schema: S,
  what = 'request body',
): Promise<Result<z.infer<S>, CutoverError>> {
  const body = await readJson(c)
  if (!body.ok) return body
  return validate(schema, body.value, what)
}

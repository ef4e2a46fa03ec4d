import type { Result } from '../../result.ts'
import { err, ok } from '../../result.ts'
import type { PyIssue, PyType } from '../pyjson/pydanticTypes.ts'
import type { PyJson } from '../pyjson/pyValues.ts'

/** FastAPI's 422 body for pydantic errors: `{"detail": [{type, loc, msg, input, ctx?}, …]}`. */
function validationErrorBody(issues: readonly PyIssue[]): PyJson {
  return {
    detail: issues.map((i) => ({
      type: i.type,
      loc: [...i.loc],
      msg: i.msg,
      input: i.input,
      ...(i.ctx === undefined ? {} : { ctx: { ...i.ctx } }),
    })),
  }
}

/**
 * FastAPI's validation of a route's single body model: an absent (or JSON `null`) body is
 * `missing` at `["body"]`, anything else is validated with `loc` starting at `"body"`. Ok: the
 * model's dump; error: the 422 body.
 */
export function validateRequestBody(
  model: PyType,
  body: PyJson | undefined,
): Result<PyJson, PyJson> {
  if (body === undefined)
    return err(
      validationErrorBody([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]),
    )
  const r = model.validate(body, ['body'])
  return r.ok ? ok(r.value) : err(validationErrorBody(r.issues))
}

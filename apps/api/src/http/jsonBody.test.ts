import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { validate } from './jsonBody.ts'

describe('validate', () => {
  const schema = z.strictObject({ step: z.coerce.number().int() })

  it('[api] an issue of the whole query is named (query), of the whole body (body); fields by path', () => {
    const query = validate(schema, { step: '1', foo: 'x' }, 'query')
    expect(query.ok ? '' : query.error.message).toBe(
      'invalid query: (query): Unrecognized key: "foo"',
    )
    const body = validate(schema, { step: '1', foo: 'x' }, 'run config')
    expect(body.ok ? '' : body.error.message).toMatch(/^invalid run config: \(body\): /)
    const field = validate(schema, { step: 'a' }, 'query')
    expect(field.ok ? '' : field.error.code).toBe('invalid_request')
    expect(field.ok ? '' : field.error.message).toMatch(/^invalid query: step: /)
  })
})

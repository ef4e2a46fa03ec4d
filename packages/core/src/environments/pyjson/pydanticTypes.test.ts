import { describe, expect, it } from 'vitest'
import { RESPONSE_CREATE_PARAMS } from '../gymnasium/responsesModels.ts'
import {
  notRequired,
  optionalField,
  pyBool,
  pyDict,
  pyFloatType,
  pyIntType,
  pyList,
  pyLiteral,
  pyModel,
  pyStr,
  pyTypedDict,
  pyUnion,
  withDefault,
} from './pydanticTypes.ts'
import { PyFloat, PyInt } from './pyValues.ts'

describe('[pyjson-models] pydantic v2 lax validation and dumps', () => {
  it('int: whole floats, bools and decimal strings; exact beyond 2^53; the reference messages otherwise', () => {
    expect(pyIntType.validate(new PyFloat(2), [])).toMatchObject({ ok: true, value: 2 })
    expect(pyIntType.validate(' 1_000 ', [])).toMatchObject({ ok: true, value: 1000 })
    expect(pyIntType.validate(true, [])).toMatchObject({ ok: true, value: 1 })
    expect(pyIntType.validate('100000000000000000000', [])).toMatchObject({
      ok: true,
      value: new PyInt(10n ** 20n),
    })
    expect(pyIntType.validate(2.5, ['body', 'count'])).toEqual({
      ok: false,
      issues: [
        {
          type: 'int_from_float',
          loc: ['body', 'count'],
          msg: 'Input should be a valid integer, got a number with a fractional part',
          input: 2.5,
        },
      ],
    })
    expect(pyIntType.validate(null, [])).toMatchObject({
      ok: false,
      issues: [{ type: 'int_type' }],
    })
  })

  it('float dumps as a float; bool and str follow the lax rules', () => {
    expect(pyFloatType.validate(0, [])).toMatchObject({ ok: true, value: new PyFloat(0) })
    expect(pyFloatType.validate('x', [])).toMatchObject({
      ok: false,
      issues: [{ type: 'float_parsing' }],
    })
    expect(pyBool.validate('yes', [])).toMatchObject({ ok: true, value: true })
    expect(pyBool.validate(2, [])).toMatchObject({ ok: false, issues: [{ type: 'bool_parsing' }] })
    expect(pyStr.validate(1, [])).toMatchObject({
      ok: false,
      issues: [{ type: 'string_type', msg: 'Input should be a valid string' }],
    })
    expect(pyLiteral('a', 'b', 'c').validate('d', [])).toMatchObject({
      ok: false,
      issues: [
        {
          type: 'literal_error',
          msg: "Input should be 'a', 'b' or 'c'",
          ctx: { expected: "'a', 'b' or 'c'" },
        },
      ],
    })
  })

  it('a model dumps every field in declaration order with defaults; extras per its config', () => {
    const fields = { b: { type: pyStr }, a: withDefault(pyBool, true), c: optionalField(pyIntType) }
    expect(pyModel('M', fields).validate({ x: 1, b: 's' }, [])).toMatchObject({
      ok: true,
      value: { b: 's', a: true, c: null },
    })
    expect(pyModel('M', fields, { extra: 'allow' }).validate({ x: 1, b: 's' }, [])).toMatchObject({
      ok: true,
      value: { b: 's', a: true, c: null, x: 1 },
    })
    expect(pyModel('M', fields, { extra: 'forbid' }).validate({ x: 1 }, ['body'])).toEqual({
      ok: false,
      issues: [
        { type: 'missing', loc: ['body', 'b'], msg: 'Field required', input: { x: 1 } },
        {
          type: 'extra_forbidden',
          loc: ['body', 'x'],
          msg: 'Extra inputs are not permitted',
          input: 1,
        },
      ],
    })
    expect(pyModel('M', fields).validate('x', ['body'])).toMatchObject({
      ok: false,
      issues: [{ type: 'model_attributes_type' }],
    })
  })

  it('a TypedDict keeps only the keys given, in declaration order', () => {
    const td = pyTypedDict('T', {
      name: { type: pyStr },
      description: notRequired(pyStr),
      type: { type: pyLiteral('function') },
    })
    expect(td.validate({ type: 'function', extra: 1, name: 'f' }, [])).toMatchObject({
      ok: true,
      value: { name: 'f', type: 'function' },
    })
  })

  it('a union picks the member that set the most fields, and lists every member failure under its tag', () => {
    const gt = pyUnion(pyList(pyDict(pyStr)), pyStr)
    expect(gt.validate([{ name: 'x', arguments: { a: 1 } }], ['body', 'ground_truth'])).toEqual({
      ok: false,
      issues: [
        {
          type: 'string_type',
          loc: ['body', 'ground_truth', 'list[dict[str,str]]', 0, 'arguments'],
          msg: 'Input should be a valid string',
          input: { a: 1 },
        },
        {
          type: 'string_type',
          loc: ['body', 'ground_truth', 'str'],
          msg: 'Input should be a valid string',
          input: [{ name: 'x', arguments: { a: 1 } }],
        },
      ],
    })
    const short = pyModel('Short', { a: { type: pyStr } })
    const long = pyModel('Long', { a: { type: pyStr }, b: withDefault(pyStr, 'd') })
    expect(pyUnion(short, long).validate({ a: 'x', b: 'y' }, [])).toMatchObject({
      ok: true,
      value: { a: 'x', b: 'y' },
    })
  })

  it("the create params forbid extra fields and give input items Gym's defaults", () => {
    expect(
      RESPONSE_CREATE_PARAMS.validate({ input: [{ role: 'user', content: 'hi' }], seed: 1 }, [
        'body',
        'responses_create_params',
      ]),
    ).toMatchObject({
      ok: false,
      issues: [{ type: 'extra_forbidden', loc: ['body', 'responses_create_params', 'seed'] }],
    })
    const ok = RESPONSE_CREATE_PARAMS.validate({ input: [{ role: 'user', content: 'hi' }] }, [])
    expect(ok.ok && (ok.value as { input: unknown }).input).toEqual([
      { content: 'hi', role: 'user', type: 'message' },
    ])
  })
})

import type { PyJson } from './pyValues.ts'
import { PyFloat, PyInt, intValue, isPyDict, pyFloat, exactInt } from './pyValues.ts'

/** One pydantic v2 error as FastAPI lists it in a 422 `detail` (without the docs `url`). */
export interface PyIssue {
  readonly type: string
  readonly loc: readonly (string | number)[]
  readonly msg: string
  readonly input: PyJson
  readonly ctx?: { readonly [key: string]: PyJson }
}

/** Where a value sits in the body, as pydantic's `loc`. */
export type Loc = readonly (string | number)[]

/**
 * A validation outcome: the value as pydantic dumps it (defaults filled, field order, ints/floats
 * coerced) and, for union choice, how exact the match was and how many fields the input set.
 */
export type Validation =
  | {
      readonly ok: true
      readonly value: PyJson
      readonly exact: boolean
      readonly fieldsSet?: number
    }
  | { readonly ok: false; readonly issues: readonly PyIssue[] }

/** A pydantic type: lax validation from parsed JSON straight to its JSON dump. */
export interface PyType {
  /**
   * The label pydantic puts in a union member's error `loc` (`str`, `list[dict[str,str]]`, a class
   * name).
   */
  readonly tag: string
  validate(input: PyJson, loc: Loc): Validation
}

const pass = (value: PyJson, exact = true): Validation => ({ ok: true, value, exact })
const fail = (
  type: string,
  loc: Loc,
  msg: string,
  input: PyJson,
  ctx?: PyIssue['ctx'],
): Validation => ({
  ok: false,
  issues: [{ type, loc, msg, input, ...(ctx === undefined ? {} : { ctx }) }],
})

export const pyStr: PyType = {
  tag: 'str',
  validate: (input, loc) =>
    typeof input === 'string'
      ? pass(input)
      : fail('string_type', loc, 'Input should be a valid string', input),
}

/**
 * Lax `int`: ints, whole floats, booleans and decimal strings (spaces and `_` allowed), exact at
 * any size.
 */
export const pyIntType: PyType = {
  tag: 'int',
  validate(input, loc) {
    if (typeof input === 'boolean') return pass(input ? 1 : 0, false)
    const exact = intValue(input)
    if (exact !== undefined) return pass(exactInt(exact))
    const float =
      input instanceof PyFloat ? input.value : typeof input === 'number' ? input : undefined
    if (float !== undefined) {
      if (!Number.isFinite(float))
        return fail('finite_number', loc, 'Input should be a finite number', input)
      if (Number.isInteger(float)) return pass(exactInt(BigInt(float)), false)
      return fail(
        'int_from_float',
        loc,
        'Input should be a valid integer, got a number with a fractional part',
        input,
      )
    }
    if (typeof input === 'string') {
      const text = input.trim().replace(/_/g, '')
      const m = /^([+-]?\d+)(?:\.0*)?$/.exec(text)
      if (m?.[1] !== undefined) return pass(exactInt(BigInt(m[1])), false)
      return fail(
        'int_parsing',
        loc,
        'Input should be a valid integer, unable to parse string as an integer',
        input,
      )
    }
    return fail('int_type', loc, 'Input should be a valid integer', input)
  },
}

/** Lax `float`: floats, ints and booleans as floats, numeric strings parsed. */
export const pyFloatType: PyType = {
  tag: 'float',
  validate(input, loc) {
    if (input instanceof PyFloat) return pass(input)
    if (typeof input === 'number')
      return pass(Number.isInteger(input) ? pyFloat(input) : input, !Number.isInteger(input))
    if (input instanceof PyInt) return pass(pyFloat(Number(input.value)), false)
    if (typeof input === 'boolean') return pass(pyFloat(input ? 1 : 0), false)
    if (typeof input === 'string') {
      const text = input.trim().replace(/_/g, '')
      const value = /^[+-]?(inf(inity)?|nan)$/i.test(text)
        ? Number(text.replace(/inf(inity)?/i, 'Infinity').replace(/nan/i, 'NaN'))
        : /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)
          ? Number(text)
          : undefined
      if (value === undefined)
        return fail(
          'float_parsing',
          loc,
          'Input should be a valid number, unable to parse string as a number',
          input,
        )
      return pass(
        Number.isInteger(value) || !Number.isFinite(value) ? pyFloat(value) : value,
        false,
      )
    }
    return fail('float_type', loc, 'Input should be a valid number', input)
  },
}

const TRUE_WORDS = ['1', 'on', 't', 'true', 'y', 'yes']
const FALSE_WORDS = ['0', 'f', 'false', 'n', 'no', 'off']

/** Lax `bool`: booleans, 0/1 and pydantic's yes/no words. */
export const pyBool: PyType = {
  tag: 'bool',
  validate(input, loc) {
    if (typeof input === 'boolean') return pass(input)
    const n =
      intValue(input) ??
      (input instanceof PyFloat
        ? input.value === 0
          ? 0n
          : input.value === 1
            ? 1n
            : 2n
        : undefined)
    if (n !== undefined)
      return n === 0n || n === 1n
        ? pass(n === 1n, false)
        : fail(
            'bool_parsing',
            loc,
            'Input should be a valid boolean, unable to interpret input',
            input,
          )
    if (typeof input === 'string') {
      const word = input.trim().toLowerCase()
      if (TRUE_WORDS.includes(word)) return pass(true, false)
      if (FALSE_WORDS.includes(word)) return pass(false, false)
      return fail(
        'bool_parsing',
        loc,
        'Input should be a valid boolean, unable to interpret input',
        input,
      )
    }
    return fail('bool_type', loc, 'Input should be a valid boolean', input)
  },
}

/** `Any` (and `object`): anything, kept as it came. */
export const pyAny: PyType = { tag: 'any', validate: (input) => pass(input) }

const reprLiteral = (v: string | number | boolean | null): string =>
  typeof v === 'string'
    ? `'${v}'`
    : v === null
      ? 'None'
      : typeof v === 'boolean'
        ? v
          ? 'True'
          : 'False'
        : String(v)

/** `Literal[...]`: one of the listed values. */
export function pyLiteral(...values: readonly (string | number | boolean | null)[]): PyType {
  const reprs = values.map(reprLiteral)
  const expected =
    reprs.length <= 1
      ? (reprs[0] ?? '')
      : `${reprs.slice(0, -1).join(', ')} or ${reprs[reprs.length - 1] ?? ''}`
  return {
    tag: `literal[${reprs.join(',')}]`,
    validate: (input, loc) =>
      values.some((v) => v === input)
        ? pass(input)
        : fail('literal_error', loc, `Input should be ${expected}`, input, { expected }),
  }
}

/** `Optional[X]` (pydantic's `nullable`): None, or X with X's own errors. */
export function pyOptional(inner: PyType): PyType {
  return {
    tag: `nullable[${inner.tag}]`,
    validate: (input, loc) => (input === null ? pass(null) : inner.validate(input, loc)),
  }
}

/** `List[X]`. */
export function pyList(item: PyType): PyType {
  return {
    tag: `list[${item.tag}]`,
    validate(input, loc) {
      if (!Array.isArray(input))
        return fail('list_type', loc, 'Input should be a valid list', input)
      const out: PyJson[] = []
      const issues: PyIssue[] = []
      input.forEach((element, i) => {
        const r = item.validate(element, [...loc, i])
        if (r.ok) out.push(r.value)
        else issues.push(...r.issues)
      })
      return issues.length > 0 ? { ok: false, issues } : pass(out)
    },
  }
}

/** `Dict[str, X]`. */
export function pyDict(value: PyType): PyType {
  return {
    tag: `dict[str,${value.tag}]`,
    validate(input, loc) {
      if (!isPyDict(input))
        return fail('dict_type', loc, 'Input should be a valid dictionary', input)
      const out: { [key: string]: PyJson } = {}
      const issues: PyIssue[] = []
      for (const [key, element] of Object.entries(input)) {
        const r = value.validate(element, [...loc, key])
        if (r.ok) out[key] = r.value
        else issues.push(...r.issues)
      }
      return issues.length > 0 ? { ok: false, issues } : pass(out)
    },
  }
}

/** One declared field: required, or with the default pydantic fills in. */
export interface PyField {
  readonly type: PyType
  /** Absent: the field is required. A function: a fresh default (`default_factory`). */
  readonly default?: PyJson | (() => PyJson)
  /** A `TypedDict` key that may be left out. */
  readonly notRequired?: true
}

/** A field with a default. */
export const withDefault = (type: PyType, value: PyJson | (() => PyJson)): PyField => ({
  type,
  default: value,
})
/** `Optional[X] = None`. */
export const optionalField = (type: PyType): PyField => ({ type: pyOptional(type), default: null })

interface ShapeOptions {
  /**
   * pydantic's `extra`: drop (`ignore`, the default), keep after the fields (`allow`), or refuse
   * (`forbid`).
   */
  readonly extra?: 'ignore' | 'allow' | 'forbid'
}

function validateFields(
  fields: Readonly<Record<string, PyField>>,
  options: ShapeOptions & { readonly typedDict: boolean },
  input: PyJson,
  loc: Loc,
): Validation {
  if (!isPyDict(input))
    return options.typedDict
      ? fail('dict_type', loc, 'Input should be a valid dictionary', input)
      : fail(
          'model_attributes_type',
          loc,
          'Input should be a valid dictionary or object to extract fields from',
          input,
        )
  const out: { [key: string]: PyJson } = {}
  const issues: PyIssue[] = []
  let fieldsSet = 0
  for (const [key, field] of Object.entries(fields)) {
    const given = Object.hasOwn(input, key) ? input[key] : undefined
    if (given === undefined) {
      if (field.default === undefined) {
        if (field.notRequired !== true)
          issues.push({ type: 'missing', loc: [...loc, key], msg: 'Field required', input })
        continue
      }
      if (!options.typedDict)
        out[key] = typeof field.default === 'function' ? field.default() : field.default
      continue
    }
    fieldsSet++
    const r = field.type.validate(given, [...loc, key])
    if (r.ok) out[key] = r.value
    else issues.push(...r.issues)
  }
  for (const [key, value] of Object.entries(input)) {
    if (Object.hasOwn(fields, key)) continue
    if (options.extra === 'allow') out[key] = value
    else if (options.extra === 'forbid')
      issues.push({
        type: 'extra_forbidden',
        loc: [...loc, key],
        msg: 'Extra inputs are not permitted',
        input: value,
      })
  }
  return issues.length > 0
    ? { ok: false, issues }
    : { ok: true, value: out, exact: false, fieldsSet }
}

/**
 * A `TypedDict` key that may be left out (`NotRequired`, or a key of a `total=False` dict without
 * `Required`).
 */
export const notRequired = (type: PyType): PyField => ({ type, notRequired: true })

/** A `BaseModel`: every field in declaration order (defaults filled), then the kept extras. */
export function pyModel(
  name: string,
  fields: Readonly<Record<string, PyField>>,
  options: ShapeOptions = {},
): PyType {
  return {
    tag: name,
    validate: (input, loc) => validateFields(fields, { ...options, typedDict: false }, input, loc),
  }
}

/** A `TypedDict`: only the keys given, in declaration order; undeclared keys dropped. */
export function pyTypedDict(name: string, fields: Readonly<Record<string, PyField>>): PyType {
  return {
    tag: name,
    validate: (input, loc) =>
      validateFields(fields, { extra: 'ignore', typedDict: true }, input, loc),
  }
}

/**
 * pydantic's smart-mode `Union`: an exact match wins at once; otherwise the success that set the
 * most fields, then the more exact, then the leftmost. When every member fails, each member's
 * errors are listed with its tag in the `loc`.
 */
export function pyUnion(...members: readonly PyType[]): PyType {
  return {
    tag: `union[${members.map((m) => m.tag).join(',')}]`,
    validate(input, loc) {
      let best: Extract<Validation, { ok: true }> | undefined
      const issues: PyIssue[] = []
      for (const member of members) {
        const r = member.validate(input, [...loc, member.tag])
        if (!r.ok) {
          issues.push(...r.issues)
          continue
        }
        if (r.exact && r.fieldsSet === undefined) return r
        if (best === undefined) best = r
        else if (
          best.fieldsSet !== undefined &&
          r.fieldsSet !== undefined &&
          best.fieldsSet !== r.fieldsSet
        ) {
          if (r.fieldsSet > best.fieldsSet) best = r
        } else if (r.exact && !best.exact) best = r
      }
      return best ?? { ok: false, issues }
    },
  }
}

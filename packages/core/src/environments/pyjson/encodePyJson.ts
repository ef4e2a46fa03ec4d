import type { Result } from '../../result.ts'
import { err, ok } from '../../result.ts'
import { pyFloatRepr } from './pyFloatRepr.ts'
import type { PyJson } from './pyValues.ts'
import { PyFloat, PyInt } from './pyValues.ts'

/**
 * Python's `repr` of the error `json.dumps(..., allow_nan=False)` raises for NaN and infinities.
 */
export const OUT_OF_RANGE_FLOAT = "ValueError('Out of range float values are not JSON compliant')"

/**
 * The bytes Starlette's `JSONResponse` sends: `json.dumps(value, ensure_ascii=False,
 * allow_nan=False, separators=(",", ":"))`. Integers print exactly, floats with `repr`, strings
 * keep non-ASCII text and escape what JSON requires (the same escapes JavaScript picks). NaN or an
 * infinity is the reference's ValueError, as its `repr`.
 */
export function encodePyJson(value: PyJson): Result<string, string> {
  const parts: string[] = []
  const write = (v: PyJson): boolean => {
    if (v === null) parts.push('null')
    else if (typeof v === 'boolean') parts.push(v ? 'true' : 'false')
    else if (typeof v === 'string') parts.push(JSON.stringify(v))
    else if (typeof v === 'number') {
      if (!Number.isFinite(v)) return false
      parts.push(
        Number.isInteger(v) ? (Object.is(v, -0) ? '0' : BigInt(v).toString()) : pyFloatRepr(v),
      )
    } else if (v instanceof PyInt) parts.push(v.value.toString())
    else if (v instanceof PyFloat) {
      if (!Number.isFinite(v.value)) return false
      parts.push(pyFloatRepr(v.value))
    } else if (Array.isArray(v)) {
      parts.push('[')
      for (let i = 0; i < v.length; i++) {
        if (i > 0) parts.push(',')
        if (!write(v[i] ?? null)) return false
      }
      parts.push(']')
    } else {
      parts.push('{')
      let first = true
      for (const [key, item] of Object.entries(v)) {
        if (item === undefined) continue
        if (!first) parts.push(',')
        first = false
        parts.push(JSON.stringify(key), ':')
        if (!write(item)) return false
      }
      parts.push('}')
    }
    return true
  }
  return write(value) ? ok(parts.join('')) : err(OUT_OF_RANGE_FLOAT)
}

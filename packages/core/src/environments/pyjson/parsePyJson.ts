import { decodeUtf8 } from '../../utf8.ts'
import type { Result } from '../../result.ts'
import { err, ok } from '../../result.ts'
import type { PyJson } from './pyValues.ts'
import { PyFloat, exactInt } from './pyValues.ts'

/**
 * Why a body is not JSON to Python: a `json.JSONDecodeError` (message and code-point position, as
 * FastAPI reports them in its `json_invalid` 422), or bytes Python cannot even read as text (or an
 * integer past CPython's 4 300-digit limit), which FastAPI answers with a 400.
 */
export type PyJsonError =
  | { readonly kind: 'syntax'; readonly msg: string; readonly pos: number }
  | { readonly kind: 'unreadable' }

/** CPython's `sys.get_int_max_str_digits()` default. */
const INT_MAX_STR_DIGITS = 4300

const WS = new Set([' ', '\t', '\n', '\r'])
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y
const ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
}

class Syntax {
  readonly msg: string
  readonly at: number
  constructor(msg: string, at: number) {
    this.msg = msg
    this.at = at
  }
}
class Unreadable {}

/**
 * `bytes.decode(json.detect_encoding(b))`: UTF-8 (BOM skipped) or UTF-16/32 by BOM or zero bytes.
 */
function decodeText(bytes: Uint8Array): string | undefined {
  const [b0, b1, b2, b3] = bytes
  const startsWith = (...bom: number[]) => bom.every((b, i) => bytes[i] === b)
  let encoding = 'utf-8'
  let skip = 0
  // UTF-32 (by BOM or zero bytes) is refused: Python reads it, but no Gym client sends it.
  if (startsWith(0x00, 0x00, 0xfe, 0xff) || startsWith(0xff, 0xfe, 0x00, 0x00)) return undefined
  else if (startsWith(0xfe, 0xff)) [encoding, skip] = ['utf-16be', 2]
  else if (startsWith(0xff, 0xfe)) [encoding, skip] = ['utf-16le', 2]
  else if (startsWith(0xef, 0xbb, 0xbf)) skip = 3
  else if (bytes.length >= 4 && b0 === 0 && b1 !== 0) encoding = 'utf-16be'
  else if (bytes.length >= 4 && b1 === 0 && (b2 !== 0 || b3 !== 0)) encoding = 'utf-16le'
  else if (bytes.length >= 4 && (b0 === 0 || b1 === 0)) return undefined
  else if (bytes.length === 2 && b0 === 0) encoding = 'utf-16be'
  else if (bytes.length === 2 && b1 === 0) encoding = 'utf-16le'
  const body = bytes.subarray(skip)
  if (encoding === 'utf-8') return decodeUtf8(body)
  if (body.length % 2 !== 0) return undefined
  const units: number[] = []
  for (let k = 0; k < body.length; k += 2)
    units.push(
      encoding === 'utf-16le'
        ? (body[k] ?? 0) | ((body[k + 1] ?? 0) << 8)
        : ((body[k] ?? 0) << 8) | (body[k + 1] ?? 0),
    )
  let text = ''
  for (let k = 0; k < units.length; k += 8192)
    text += String.fromCharCode(...units.slice(k, k + 8192))
  return text
}

/**
 * `json.loads(body)` as Starlette's `request.json()` runs it under CPython: the same accepted
 * texts (NaN and Infinity included, duplicate keys keep the last value at the first position), ints
 * exact at any size, floats marked as floats, and the same error message and position.
 */
export function parsePyJson(body: Uint8Array | string): Result<PyJson, PyJsonError> {
  const s = typeof body === 'string' ? body : decodeText(body)
  if (s === undefined) return err({ kind: 'unreadable' })
  let i = 0
  const skipWs = () => {
    while (i < s.length && WS.has(s[i] ?? '')) i++
  }

  const parseString = (): string => {
    const begin = i - 1
    let out = ''
    for (;;) {
      const c = s[i]
      if (c === undefined) throw new Syntax('Unterminated string starting at', begin)
      if (c === '"') {
        i++
        return out
      }
      if (c === '\\') {
        const e = s[i + 1]
        if (e === undefined) throw new Syntax('Unterminated string starting at', begin)
        if (e === 'u') {
          const code = readHex(i + 2)
          if (code === undefined) throw new Syntax('Invalid \\uXXXX escape', i + 1)
          i += 6
          if (code >= 0xd800 && code <= 0xdbff && s[i] === '\\' && s[i + 1] === 'u') {
            const low = readHex(i + 2)
            if (low !== undefined && low >= 0xdc00 && low <= 0xdfff) {
              out += String.fromCharCode(code, low)
              i += 6
              continue
            }
          }
          out += String.fromCharCode(code)
          continue
        }
        const mapped = ESCAPES[e]
        if (mapped === undefined) throw new Syntax('Invalid \\escape', i)
        out += mapped
        i += 2
        continue
      }
      if (c < ' ') throw new Syntax('Invalid control character at', i)
      out += c
      i++
    }
  }
  const readHex = (at: number): number | undefined => {
    const hex = s.slice(at, at + 4)
    return /^[0-9a-fA-F]{4}$/.test(hex) ? Number.parseInt(hex, 16) : undefined
  }

  const parseValue = (): PyJson => {
    const c = s[i]
    if (c === '"') {
      i++
      return parseString()
    }
    if (c === '{') return parseObject()
    if (c === '[') return parseArray()
    for (const [word, value] of [
      ['null', null],
      ['true', true],
      ['false', false],
      ['NaN', new PyFloat(Number.NaN)],
      ['Infinity', new PyFloat(Number.POSITIVE_INFINITY)],
      ['-Infinity', new PyFloat(Number.NEGATIVE_INFINITY)],
    ] as const) {
      if (s.startsWith(word, i)) {
        i += word.length
        return value
      }
    }
    NUMBER.lastIndex = i
    const m = NUMBER.exec(s)
    if (m === null) throw new Syntax('Expecting value', i)
    i += m[0].length
    if (m[1] === undefined && m[2] === undefined) {
      if (m[0].replace('-', '').length > INT_MAX_STR_DIGITS) throw new Unreadable()
      return exactInt(BigInt(m[0]))
    }
    const value = Number(m[0])
    return Number.isInteger(value) || !Number.isFinite(value) ? new PyFloat(value) : value
  }

  const parseObject = (): PyJson => {
    i++
    const out: { [key: string]: PyJson } = {}
    skipWs()
    if (s[i] === '}') {
      i++
      return out
    }
    for (;;) {
      if (s[i] !== '"') throw new Syntax('Expecting property name enclosed in double quotes', i)
      i++
      const key = parseString()
      skipWs()
      if (s[i] !== ':') throw new Syntax("Expecting ':' delimiter", i)
      i++
      skipWs()
      const value = parseValue()
      // Python's dict: a repeated key keeps its first position and takes the last value.
      if (key === '__proto__')
        Object.defineProperty(out, key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        })
      else out[key] = value
      skipWs()
      if (s[i] === '}') {
        i++
        return out
      }
      if (s[i] !== ',') throw new Syntax("Expecting ',' delimiter", i)
      i++
      skipWs()
    }
  }

  const parseArray = (): PyJson => {
    i++
    const out: PyJson[] = []
    skipWs()
    if (s[i] === ']') {
      i++
      return out
    }
    for (;;) {
      out.push(parseValue())
      skipWs()
      if (s[i] === ']') {
        i++
        return out
      }
      if (s[i] !== ',') throw new Syntax("Expecting ',' delimiter", i)
      i++
      skipWs()
    }
  }

  try {
    skipWs()
    const value = parseValue()
    skipWs()
    if (i !== s.length) throw new Syntax('Extra data', i)
    return ok(value)
  } catch (e) {
    if (e instanceof Syntax) return err({ kind: 'syntax', msg: e.msg, pos: codePoints(s, e.at) })
    if (e instanceof Unreadable) return err({ kind: 'unreadable' })
    throw e
  }
}

/** Python counts positions in code points; JavaScript strings index UTF-16 units. */
function codePoints(s: string, index: number): number {
  let n = 0
  for (let k = 0; k < index && k < s.length; k++) {
    const c = s.charCodeAt(k)
    if (c >= 0xd800 && c <= 0xdbff && k + 1 < index) {
      const d = s.charCodeAt(k + 1)
      if (d >= 0xdc00 && d <= 0xdfff) k++
    }
    n++
  }
  return n
}

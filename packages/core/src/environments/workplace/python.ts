import type { JsonValue } from '../../json.ts'

/**
 * A Python exception raised by a ported tool. The route turns it into
 * `Error executing tool '<name>': <message>`; verify replays skip the call.
 */
export class PyError extends Error {
  readonly pyType: string
  constructor(pyType: string, message: string) {
    super(message)
    this.pyType = pyType
  }
}

/** Python truthiness for JSON values: "", 0, false, null, [] and {} are falsy. */
export function truthy(v: JsonValue | undefined): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === '') return false
  if (Array.isArray(v)) return v.length > 0
  if (typeof v === 'object') return Object.keys(v).length > 0
  return true
}

/** Python's type name for a JSON value (numbers without a fraction read as int). */
export function pyTypeName(v: JsonValue | undefined): string {
  if (v === undefined || v === null) return 'NoneType'
  if (typeof v === 'boolean') return 'bool'
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float'
  if (typeof v === 'string') return 'str'
  return Array.isArray(v) ? 'list' : 'dict'
}

/** `repr(v)` for JSON values. */
export function pyRepr(v: JsonValue | undefined): string {
  if (typeof v === 'string')
    return v.includes("'") && !v.includes('"')
      ? `"${v}"`
      : `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`
  if (v !== null && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`)
      .join(', ')}}`
  return pyStr(v)
}

/** `str(v)` for JSON values, as f-strings print them. */
export function pyStr(v: JsonValue | undefined): string {
  if (v === undefined || v === null) return 'None'
  if (typeof v === 'boolean') return v ? 'True' : 'False'
  if (typeof v === 'string') return v
  if (typeof v === 'number') {
    if (Number.isInteger(v))
      return Math.abs(v) < 1e16
        ? String(v)
        : v.toExponential().replace(/e\+?/, 'e+').replace('e+-', 'e-')
    return String(v)
  }
  return pyRepr(v)
}

/** `s.lower()`: AttributeError for anything but a str. */
export function pyLower(v: JsonValue | undefined): string {
  if (typeof v !== 'string')
    throw new PyError('AttributeError', `'${pyTypeName(v)}' object has no attribute 'lower'`)
  return v.toLowerCase()
}

/**
 * `int(v)`: ValueError for bad strings, TypeError for non-numbers (the tools catch only
 * ValueError).
 */
export function pyInt(v: JsonValue | undefined): number {
  if (typeof v === 'boolean') return v ? 1 : 0
  if (typeof v === 'number') return Math.trunc(v)
  if (typeof v === 'string') {
    const t = v.trim()
    if (/^[+-]?\d+(_\d+)*$/.test(t)) return Number(t.replace(/_/g, ''))
    throw new PyError('ValueError', `invalid literal for int() with base 10: ${pyRepr(v)}`)
  }
  throw new PyError(
    'TypeError',
    `int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(v)}'`,
  )
}

/**
 * An integer argument used in arithmetic (page, page_size): bool reads as int, anything else
 * raises.
 */
export function pyIndex(v: JsonValue | undefined): number {
  if (typeof v === 'boolean') return v ? 1 : 0
  if (typeof v === 'number' && Number.isInteger(v)) return v
  if (typeof v === 'number')
    throw new PyError(
      'TypeError',
      'slice indices must be integers or None or have an __index__ method',
    )
  throw new PyError('TypeError', `unsupported operand type(s) for +: 'int' and '${pyTypeName(v)}'`)
}

/** Python `a // b` on ints. */
export function floorDiv(a: number, b: number): number {
  if (b === 0) throw new PyError('ZeroDivisionError', 'integer division or modulo by zero')
  return Math.floor(a / b)
}

/** Python `seq[start:end]` with negative indices and clamping. */
export function pySlice<T>(seq: readonly T[], start: number, end: number): T[] {
  const n = seq.length
  const norm = (i: number) => (i < 0 ? Math.max(0, n + i) : Math.min(i, n))
  return seq.slice(norm(start), norm(end))
}

/** `a >= b` style comparison of a str cell with a bound: TypeError unless both are str. */
export function compareStr(cell: JsonValue, bound: JsonValue, op: '>=' | '<='): boolean {
  if (typeof cell !== 'string' || typeof bound !== 'string') {
    if (cell === null && typeof bound === 'string') return false // NaN compares false
    throw new PyError(
      'TypeError',
      `'${op}' not supported between instances of '${pyTypeName(cell)}' and '${pyTypeName(bound)}'`,
    )
  }
  return op === '>=' ? cell >= bound : cell <= bound
}

/** Using a list or dict as a dict key or Index lookup: TypeError unhashable. */
export function assertHashable(v: JsonValue | undefined): void {
  if (Array.isArray(v) || (typeof v === 'object' && v !== null))
    throw new PyError('TypeError', `unhashable type: '${pyTypeName(v)}'`)
}

import { canonicalJson } from './json.ts'

/**
 * True when `a` and `b` have the same canonical JSON (`canonicalJson`), decided by walking both
 * values instead of encoding them: no key sorting, no strings built. Plain JSON (null, booleans,
 * finite numbers, strings, arrays, plain objects) is compared directly, key order ignored; a
 * value with a form of its own (`toJSON`, `undefined` or functions that canonical JSON drops,
 * non-finite numbers, class instances) hands the pair to the encoder.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  const same = compare(a, b)
  return same === UNSURE ? canonicalJson({ v: a }) === canonicalJson({ v: b }) : same
}

const UNSURE = 2

function kind(v: unknown): 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object' | 'other' {
  if (v === null) return 'null'
  switch (typeof v) {
    case 'boolean':
      return 'boolean'
    case 'string':
      return 'string'
    case 'number':
      return Number.isFinite(v) ? 'number' : 'other'
    case 'object': {
      if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return 'other'
      if (Array.isArray(v)) return 'array'
      const proto: unknown = Object.getPrototypeOf(v)
      return proto === Object.prototype || proto === null ? 'object' : 'other'
    }
    default:
      return 'other'
  }
}

function compare(a: unknown, b: unknown): boolean | typeof UNSURE {
  // The same value (or object) has the same canonical JSON.
  if (a === b) return true
  const ka = kind(a)
  const kb = kind(b)
  if (ka === 'other' || kb === 'other') return UNSURE
  // Distinct plain values of different kinds, or distinct primitives of one kind, write
  // differently.
  if (ka !== kb || (ka !== 'array' && ka !== 'object')) return false
  if (ka === 'array') {
    const x = a as readonly unknown[]
    const y = b as readonly unknown[]
    if (x.length !== y.length) return false
    let unsure = false
    for (let i = 0; i < x.length; i++) {
      const r = compare(x[i], y[i])
      if (r === false) return false
      if (r === UNSURE) unsure = true
    }
    return unsure ? UNSURE : true
  }
  const x = a as { readonly [k: string]: unknown }
  const y = b as { readonly [k: string]: unknown }
  const keys = Object.keys(x)
  // Unequal key counts may still write alike (a key whose value canonical JSON drops).
  if (keys.length !== Object.keys(y).length) return UNSURE
  let unsure = false
  for (const key of keys) {
    if (key === '__proto__' || !Object.prototype.propertyIsEnumerable.call(y, key)) return UNSURE
    const r = compare(x[key], y[key])
    if (r === false) return false
    if (r === UNSURE) unsure = true
  }
  return unsure ? UNSURE : true
}

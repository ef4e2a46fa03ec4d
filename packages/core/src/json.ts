/** JSON values as they cross files and the wire. */
export type JsonValue =
  null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }

/**
 * Canonical JSON: object keys sorted, no white space, non-ASCII escaped as \uXXXX.
 * The form every digest in Cutover is taken over (and the reference fixtures' table digests).
 */
export function canonicalJson(value: unknown): string {
  return escapeNonAscii(JSON.stringify(sortKeys(value)))
}

function sortKeys(value: unknown): unknown {
  // Leaves first: most values in a record are primitives.
  if (value === null || typeof value !== 'object') return value
  // Like JSON.stringify, a value with `toJSON` (a Python float or big int in an answer) is written
  // as what it returns.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return sortKeys((value as { toJSON: () => unknown }).toJSON())
  if (Array.isArray(value)) {
    // An array of primitives (token ids, a Mersenne Twister state) is written as it stands: a copy
    // would serialise to the same text.
    const n = value.length
    let i = 0
    while (i < n) {
      const v: unknown = value[i]
      if (v !== null && typeof v === 'object') break
      i++
    }
    return i === n ? value : value.map(sortKeys)
  }
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key]
    if (v !== undefined) out[key] = sortKeys(v)
  }
  return out
}

function escapeNonAscii(text: string): string {
  return text.replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

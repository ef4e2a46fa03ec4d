/** JSON values as they cross files and the wire. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue }

/**
 * Canonical JSON: object keys sorted, no white space, non-ASCII escaped as \uXXXX.
 * The form every digest in Cutover is taken over (and the reference fixtures' table digests).
 */
export function canonicalJson(value: unknown): string {
  return escapeNonAscii(JSON.stringify(sortKeys(value)))
}

function sortKeys(value: unknown): unknown {
  // Like JSON.stringify, a value with `toJSON` (a Python float or big int in an answer) is written as what it returns.
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return sortKeys((value as { toJSON: () => unknown }).toJSON())
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key]
      if (v !== undefined) out[key] = sortKeys(v)
    }
    return out
  }
  return value
}

function escapeNonAscii(text: string): string {
  return text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

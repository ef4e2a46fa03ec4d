import type { JsonValue } from '@cutover/core'

/** What stands in for a secret in a recording. */
export const REDACTED = '***'

/** Keys whose string values are secrets wherever they appear (bodies, queries, headers). */
const SECRET_KEY = /authorization|token|secret|passw(or)?d|api[-_]?key|cookie|credential/i
/** `Bearer <credential>` (and the other schemes) anywhere in a text. */
const SCHEME_CREDENTIAL = /\b(Bearer|Basic|Token|Digest)\s+[A-Za-z0-9._~+/=:-]+/gi
/** Secrets shorter than this are redacted as whole values only (a substring would eat text). */
const MIN_SUBSTRING = 4

/**
 * Removes secrets from what a recording keeps. It knows the control token(s) it is given and
 * learns every credential an `Authorization` header carries, then replaces each occurrence of one
 * in any text with `***`; it also replaces the credential after `Bearer`/`Basic`/`Token`, and the
 * string value of any key that names a secret (`authorization`, `*token*`, `secret`, `password`,
 * `api_key`, `cookie`, `credential`). `tail` guards the cut end of a truncated body: a known secret
 * that starts in the kept head and runs past it is cut off too.
 */
export interface Redactor {
  /** Remembers a secret (a control token, an `Authorization` credential). */
  learn(secret: string): void
  text(text: string): string
  value(value: JsonValue): JsonValue
  /** `text` with any known secret's opening that runs off its end removed (a truncated body). */
  tail(text: string): string
}

export function createRedactor(secrets: readonly (string | undefined)[] = []): Redactor {
  const known = new Set<string>()
  const learn = (secret: string): void => {
    const s = secret.trim()
    if (s !== '' && s !== REDACTED) known.add(s)
  }
  for (const s of secrets) if (s !== undefined) learn(s)

  const text = (input: string): string => {
    let out = input
    for (const secret of known) {
      if (out === secret) return REDACTED
      if (secret.length >= MIN_SUBSTRING && out.includes(secret))
        out = out.split(secret).join(REDACTED)
    }
    return out.replace(SCHEME_CREDENTIAL, (_match, scheme: string) => `${scheme} ${REDACTED}`)
  }
  const value = (input: JsonValue): JsonValue => {
    if (typeof input === 'string') return text(input)
    if (Array.isArray(input)) return input.map(value)
    if (input !== null && typeof input === 'object') {
      const out: { [key: string]: JsonValue } = {}
      for (const [key, v] of Object.entries(input))
        out[text(key)] = typeof v === 'string' && SECRET_KEY.test(key) ? REDACTED : value(v)
      return out
    }
    return input
  }
  const tail = (input: string): string => {
    let out = text(input)
    for (const secret of known)
      for (let n = Math.min(secret.length - 1, out.length); n >= MIN_SUBSTRING; n--)
        if (out.endsWith(secret.slice(0, n))) {
          out = `${out.slice(0, out.length - n)}${REDACTED}`
          break
        }
    return out
  }
  return { learn, text, value, tail }
}

/** True for a key whose value is a secret (used for headers and query parameters too). */
export const isSecretKey = (key: string): boolean => SECRET_KEY.test(key)

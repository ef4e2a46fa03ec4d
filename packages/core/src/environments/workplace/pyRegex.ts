import type { JsonValue } from '../../json.ts'
import { PyError, pyTypeName } from './python.ts'

// Escapes Python's `re` knows outside a class; any other ASCII letter after a backslash is an error
// there.
const KNOWN_ESCAPES = new Set('abBdDfnrsStvwWAZxuUN0123456789'.split(''))
const cache = new Map<string, RegExp>()

/**
 * Compiles a pattern with Python `re` semantics as pandas' `str.contains(pat, case=False)` uses it:
 * a case-insensitive regular-expression *search*. Python-only syntax is translated (`(?P<n>`,
 * `(?P=n)`, `\A`, `\Z`, `\a`, leading inline flags); Python's "bad escape" and the syntax errors JS
 * also rejects raise as `re.error`.
 */
export function compilePyRegex(pattern: JsonValue | undefined): RegExp {
  if (typeof pattern !== 'string')
    throw new PyError(
      'TypeError',
      `first argument must be string or compiled pattern, not ${pyTypeName(pattern)}`,
    )
  const cached = cache.get(pattern)
  if (cached) return cached
  let flags = 'i'
  let src = pattern
  const inline = /^\(\?([aiLmsux]+)\)/.exec(src)
  if (inline) {
    const f = inline[1] as string
    if (f.includes('m')) flags += 'm'
    if (f.includes('s')) flags += 's'
    src = src.slice(inline[0].length)
  }
  let out = ''
  let inClass = false
  for (let i = 0; i < src.length; i++) {
    const c = src[i] as string
    if (c === '\\') {
      const n = src[i + 1]
      if (n === undefined)
        throw new PyError('re.error', `bad escape (end of pattern) at position ${i}`)
      if (/[A-Za-z]/.test(n) && !KNOWN_ESCAPES.has(n))
        throw new PyError('re.error', `bad escape \\${n} at position ${i}`)
      if (!inClass && n === 'A') out += '^'
      else if (!inClass && n === 'Z') out += '$(?![\\s\\S])'
      else if (n === 'a') out += '\\x07'
      else if (inClass && n === 'b') out += '\\x08'
      else out += c + n
      i++
      continue
    }
    if (inClass) {
      if (c === ']' && !(out.endsWith('[') || out.endsWith('[^'))) inClass = false
      out += c
      continue
    }
    if (c === '[') inClass = true
    if (c === '(' && src.startsWith('(?P<', i)) {
      out += '(?<'
      i += 3
      continue
    }
    if (c === '(' && src.startsWith('(?P=', i)) {
      const close = src.indexOf(')', i)
      if (close < 0)
        throw new PyError('re.error', `missing ), unterminated name at position ${i + 4}`)
      out += `\\k<${src.slice(i + 4, close)}>`
      i = close
      continue
    }
    out += c
  }
  let re: RegExp
  try {
    re = new RegExp(out, flags)
  } catch (e) {
    throw new PyError(
      're.error',
      pythonishRegexMessage(pattern, e instanceof Error ? e.message : String(e)),
    )
  }
  cache.set(pattern, re)
  return re
}

/** `bool(re.search(pattern, text, re.IGNORECASE))`. */
export function pySearch(pattern: JsonValue | undefined, text: string): boolean {
  return compilePyRegex(pattern).test(text)
}

function pythonishRegexMessage(pattern: string, jsMessage: string): string {
  const open = pattern.indexOf('(')
  if (/Unterminated group/i.test(jsMessage) && open >= 0)
    return `missing ), unterminated subpattern at position ${open}`
  if (/Unmatched '\)'/i.test(jsMessage))
    return `unbalanced parenthesis at position ${pattern.indexOf(')')}`
  if (/Nothing to repeat/i.test(jsMessage)) return 'nothing to repeat'
  if (/Unterminated character class/i.test(jsMessage))
    return `unterminated character set at position ${pattern.lastIndexOf('[')}`
  return jsMessage
}

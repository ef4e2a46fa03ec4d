/**
 * UTF-8 without platform APIs: core's lib has no TextEncoder (no DOM, no node types), and the
 * directory needs bytes for files and digests. Canonical JSON is ASCII, so the fast path dominates.
 */

/** Encodes a string as UTF-8 (lone surrogates become U+FFFD, as TextEncoder does). */
export function encodeUtf8(text: string): Uint8Array {
  // Fast path: ASCII text (all canonical JSON) maps one code unit to one byte.
  const ascii = new Uint8Array(text.length)
  let i = 0
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c > 0x7f) break
    ascii[i] = c
  }
  if (i === text.length) return ascii
  const bytes: number[] = []
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i)
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (next - 0xdc00)
        i++
      } else cp = 0xfffd
    } else if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd
    if (cp < 0x80) bytes.push(cp)
    else if (cp < 0x800) bytes.push(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f))
    else if (cp < 0x10000)
      bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f))
    else
      bytes.push(
        0xf0 | (cp >> 18),
        0x80 | ((cp >> 12) & 0x3f),
        0x80 | ((cp >> 6) & 0x3f),
        0x80 | (cp & 0x3f),
      )
  }
  return Uint8Array.from(bytes)
}

/** Decodes strict UTF-8; undefined when the bytes are not valid UTF-8 (a damaged file). */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  const parts: string[] = []
  const units: number[] = []
  let i = 0
  while (i < bytes.length) {
    // Fast path: a run of ASCII bytes becomes one string in one call (canonical JSON is ASCII).
    let end = i
    while (end < bytes.length && end - i < 8192 && (bytes[end] as number) < 0x80) end++
    if (end > i) {
      if (units.length > 0) parts.push(String.fromCharCode(...units.splice(0)))
      parts.push(String.fromCharCode.apply(null, bytes.subarray(i, end) as unknown as number[]))
      i = end
      continue
    }
    const b0 = bytes[i] as number
    let cp: number
    let need: number
    let min: number
    if (b0 >= 0xc2 && b0 <= 0xdf) {
      cp = b0 & 0x1f
      need = 1
      min = 0x80
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      cp = b0 & 0x0f
      need = 2
      min = 0x800
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      cp = b0 & 0x07
      need = 3
      min = 0x10000
    } else return undefined
    for (let k = 1; k <= need; k++) {
      const b = bytes[i + k]
      if (b === undefined || (b & 0xc0) !== 0x80) return undefined
      cp = (cp << 6) | (b & 0x3f)
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return undefined
    i += need + 1
    if (cp >= 0x10000) {
      const v = cp - 0x10000
      units.push(0xd800 + (v >> 10), 0xdc00 + (v & 0x3ff))
    } else units.push(cp)
    if (units.length >= 8192) parts.push(String.fromCharCode(...units.splice(0)))
  }
  if (units.length > 0) parts.push(String.fromCharCode(...units))
  return parts.join('')
}

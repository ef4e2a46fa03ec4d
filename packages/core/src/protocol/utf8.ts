/**
 * UTF-8 without TextEncoder/TextDecoder: the domain compiles against ES2023 only (no DOM, no node
 * types), and file bytes must be identical on every platform.
 */
export function utf8Encode(text: string): Uint8Array {
  const out: number[] = []
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0
    if (c < 0x80) out.push(c)
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63))
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63))
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63))
  }
  return Uint8Array.from(out)
}

/** Decodes UTF-8; malformed sequences become U+FFFD (a flipped byte must not throw). */
export function utf8Decode(bytes: Uint8Array): string {
  let s = ''
  let i = 0
  while (i < bytes.length) {
    const b = bytes[i] ?? 0
    let cp = 0xfffd
    let n = 1
    if (b < 0x80) cp = b
    else if (b >= 0xc0 && b < 0xe0 && i + 1 < bytes.length) { cp = ((b & 31) << 6) | ((bytes[i + 1] ?? 0) & 63); n = 2 }
    else if (b >= 0xe0 && b < 0xf0 && i + 2 < bytes.length) { cp = ((b & 15) << 12) | (((bytes[i + 1] ?? 0) & 63) << 6) | ((bytes[i + 2] ?? 0) & 63); n = 3 }
    else if (b >= 0xf0 && i + 3 < bytes.length) { cp = ((b & 7) << 18) | (((bytes[i + 1] ?? 0) & 63) << 12) | (((bytes[i + 2] ?? 0) & 63) << 6) | ((bytes[i + 3] ?? 0) & 63); n = 4 }
    s += String.fromCodePoint(cp > 0x10ffff ? 0xfffd : cp)
    i += n
  }
  return s
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** Standard base64 with padding (receipts store response bodies as `body_base64`). */
export function base64Encode(bytes: Uint8Array): string {
  let out = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] ?? 0
    const b = bytes[i + 1]
    const c = bytes[i + 2]
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0)
    out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]! + (b === undefined ? '=' : B64[(n >> 6) & 63]!) + (c === undefined ? '=' : B64[n & 63]!)
  }
  return out
}

/** Decodes standard base64 (padding optional). */
export function base64Decode(text: string): Uint8Array {
  const clean = text.replace(/=+$/, '')
  const out: number[] = []
  let buf = 0
  let bits = 0
  for (const ch of clean) {
    const v = B64.indexOf(ch)
    if (v < 0) continue
    buf = (buf << 6) | v
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out.push((buf >> bits) & 0xff)
    }
  }
  return Uint8Array.from(out)
}

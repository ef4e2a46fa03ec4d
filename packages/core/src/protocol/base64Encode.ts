const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/**
 * Standard base64 with padding: mutation receipts store response bodies as `body_base64`
 * (ResourceSnapshot schema 1). The domain has no Buffer/btoa (no DOM, no node types).
 */
export function base64Encode(bytes: Uint8Array): string {
  let out = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] ?? 0
    const b = bytes[i + 1]
    const c = bytes[i + 2]
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0)
    out +=
      B64[(n >> 18) & 63]! +
      B64[(n >> 12) & 63]! +
      (b === undefined ? '=' : B64[(n >> 6) & 63]!) +
      (c === undefined ? '=' : B64[n & 63]!)
  }
  return out
}

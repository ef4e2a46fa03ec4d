const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** Decodes standard padded base64 (a receipt's `body_base64`); undefined when it is not base64. */
export function base64Decode(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined
  const out: number[] = []
  for (let i = 0; i < text.length; i += 4) {
    const q = [0, 1, 2, 3].map((k) =>
      text[i + k] === '=' ? -1 : B64.indexOf(text[i + k] as string),
    )
    const [a, b, c, d] = q as [number, number, number, number]
    const n = (a << 18) | (b << 12) | (Math.max(c, 0) << 6) | Math.max(d, 0)
    out.push((n >> 16) & 255)
    if (c >= 0) out.push((n >> 8) & 255)
    if (d >= 0) out.push(n & 255)
  }
  return Uint8Array.from(out)
}

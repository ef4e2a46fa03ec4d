import { createHash } from 'node:crypto'
import type { Digest } from '../ports.ts'

/** The `Digest` port over node:crypto: SHA-256, lower-case hex; strings are hashed as UTF-8. */
export const nodeDigest: Digest = {
  sha256Hex(data: Uint8Array | string): string {
    return createHash('sha256').update(data).digest('hex')
  },
}

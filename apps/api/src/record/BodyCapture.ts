import { createHash } from 'node:crypto'
import type { Hash } from 'node:crypto'
import type { JsonValue, RecordedBody } from '@cutover/core'
import type { Redactor } from './createRedactor.ts'

/** The bound of a recorded body unless `--max-body-bytes` says otherwise (64 KiB). */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024

/** A body as a recording keeps it: the value and how it was kept. */
export interface CapturedBody {
  readonly value: JsonValue
  readonly info: RecordedBody
}

/**
 * Keeps a copy of a body that streams through the proxy, bounded: the first `limit` bytes are
 * held; past them only the byte count goes on, and a SHA-256 of the whole body (started once the
 * bound is crossed, over the held bytes first). The forwarded bytes are never touched: this sees a
 * copy of each chunk after it was written on.
 */
export class BodyCapture {
  readonly #limit: number
  readonly #chunks: Buffer[] = []
  #held = 0
  #bytes = 0
  #hash: Hash | undefined

  constructor(limit: number) {
    this.#limit = limit
  }

  push(chunk: Buffer): void {
    this.#bytes += chunk.length
    if (this.#hash !== undefined) {
      this.#hash.update(chunk)
      return
    }
    if (this.#held + chunk.length <= this.#limit) {
      this.#chunks.push(chunk)
      this.#held += chunk.length
      return
    }
    // The bound is crossed: hash what is held and this chunk, keep the head up to the bound.
    this.#hash = createHash('sha256')
    for (const held of this.#chunks) this.#hash.update(held)
    this.#hash.update(chunk)
    const room = this.#limit - this.#held
    if (room > 0) this.#chunks.push(chunk.subarray(0, room))
    this.#held = this.#limit
  }

  /** The whole body, when it was kept whole (not past the bound). */
  whole(): Buffer | undefined {
    return this.#hash === undefined ? Buffer.concat(this.#chunks) : undefined
  }

  get bytes(): number {
    return this.#bytes
  }

  /** The body as kept, secrets removed (`redactor`): parsed JSON when it is JSON, else text or
   * base64; a truncated body is the text of its head, with its size and digest. */
  finish(redactor: Redactor): CapturedBody {
    const head = Buffer.concat(this.#chunks)
    if (this.#hash !== undefined) {
      const text = decodeText(head, 3)
      return {
        value: text === undefined ? head.toString('base64') : redactor.tail(text),
        info: {
          bytes: this.#bytes,
          truncated: true,
          sha256: this.#hash.digest('hex'),
          encoding: text === undefined ? 'base64' : 'text',
        },
      }
    }
    if (this.#bytes === 0)
      return { value: null, info: { bytes: 0, truncated: false, encoding: 'empty' } }
    const text = decodeText(head, 0)
    if (text === undefined)
      return {
        value: head.toString('base64'),
        info: { bytes: this.#bytes, truncated: false, encoding: 'base64' },
      }
    try {
      const parsed = JSON.parse(text) as JsonValue
      return {
        value: redactor.value(parsed),
        info: { bytes: this.#bytes, truncated: false, encoding: 'json' },
      }
    } catch {
      return {
        value: redactor.text(text),
        info: { bytes: this.#bytes, truncated: false, encoding: 'text' },
      }
    }
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true })

/**
 * UTF-8 text, or undefined for bytes that are not; up to `cut` bytes may be dropped from the end (a
 * truncated head may end in the middle of a character).
 */
function decodeText(bytes: Buffer, cut: number): string | undefined {
  for (let drop = 0; drop <= cut && drop <= bytes.length; drop++) {
    try {
      return decoder.decode(bytes.subarray(0, bytes.length - drop))
    } catch {
      // a multi-byte character cut at the bound: try without its first bytes
    }
  }
  return undefined
}

import { canonicalJson } from '../json.ts'
import type { Digest } from '../ports.ts'

/**
 * Tokens a generation produces per virtual millisecond (docs/protocol.md §11.6: fixed by the
 * implementation).
 */
export const TOKENS_PER_MS = 1

/** The simulated vocabulary size (the tokenizer's ids are below it too). */
const VOCABULARY = 50_257

/**
 * Token ids of one generation, `[from, to)`: a pure function of `(seed, rollout, call, position)`,
 * so an uninterrupted call and a cut-and-continued one produce the same ids. `call` is the
 * rollout's turn (the same across attempts), not a model call id.
 */
export function generationTokenIds(
  seed: string,
  rolloutId: string,
  call: number,
  from: number,
  to: number,
): number[] {
  let base = 0x811c9dc5
  for (const c of `${seed}/${rolloutId}/${call}`)
    base = Math.imul(base ^ c.charCodeAt(0), 0x01000193) >>> 0
  const out: number[] = []
  for (let position = from; position < to; position++) {
    let h = Math.imul(base ^ position, 0x9e3779b1) >>> 0
    h = Math.imul(h ^ (h >>> 15), 0x85ebca6b) >>> 0
    h = (h ^ (h >>> 13)) >>> 0
    out.push(h % VOCABULARY)
  }
  return out
}

/**
 * `prefix_digest`: SHA-256 hex of the canonical JSON array of the token ids
 * (docs/protocol.md §11.3).
 */
export const tokenDigest = (digest: Digest, tokens: readonly number[]): string =>
  digest.sha256Hex(canonicalJson(tokens))

/** The segment identity a cut stages its prefix under: `tq/<model_call_id>/seg-<n>`. */
export const segmentKey = (modelCallId: string, segment: number): string =>
  `tq/${modelCallId}/seg-${segment}`

/** The tokens a generation of `total` tokens started at `admittedAt` has produced by `now`. */
export const tokensAt = (total: number, admittedAt: number, now: number): number =>
  Math.max(0, Math.min(total, Math.floor((now - admittedAt) * TOKENS_PER_MS)))

import type { JsonValue } from '../json.ts'
import { canonicalJson } from '../json.ts'
import type { Digest } from '../ports.ts'

/**
 * The simulated TransferQueue / token store: owns token ids per staging key. Gym lineage only ever
 * holds the token-free coordinates; the store takes its own snapshot after the Gym manifests.
 */
export class TokenStore {
  readonly #rows = new Map<string, readonly number[]>()

  /** Stages one call's token delta durably under its key. */
  stage(stagingKey: string, tokens: readonly number[]): void {
    this.#rows.set(stagingKey, tokens)
  }
  /** The staged token ids of `stagingKey` (a cut's segment, or a call's delta). */
  tokens(stagingKey: string): readonly number[] | undefined {
    return this.#rows.get(stagingKey)
  }
  has(stagingKey: string): boolean {
    return this.#rows.has(stagingKey)
  }
  get size(): number {
    return this.#rows.size
  }

  /** The snapshot of the staged rows a checkpoint needs: key → length and digest of the ids. */
  snapshot(keys: readonly string[], digest: Digest): JsonValue {
    const rows: { [key: string]: JsonValue } = {}
    for (const key of [...new Set(keys)].sort()) {
      const tokens = this.#rows.get(key)
      if (tokens === undefined) continue
      rows[key] = { tokens: tokens.length, sha256: digest.sha256Hex(canonicalJson(tokens)) }
    }
    return { rows }
  }
}

/** Simulated tokenizer: one token per four characters, the id a checksum of the characters. */
export function tokenize(text: string): readonly number[] {
  const out: number[] = []
  for (let i = 0; i < text.length; i += 4) {
    let id = 0
    for (let j = i; j < Math.min(text.length, i + 4); j++)
      id = (id * 131 + text.charCodeAt(j)) % 50_257
    out.push(id)
  }
  return out
}

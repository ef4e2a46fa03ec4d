import type { JsonValue } from '@cutover/core/contracts'

/** A readable picture of an environment state, when the shape is one we know. */
export type StatePicture =
  | {
      readonly kind: 'blackjack'
      readonly player: string[]
      readonly dealer: string[]
      readonly rngPosition: number | null
    }
  | { readonly kind: 'counter'; readonly value: number }
  | { readonly kind: 'other' }

const isObject = (v: JsonValue): v is { [k: string]: JsonValue } =>
  v !== null && typeof v === 'object' && !Array.isArray(v)
const card = (v: JsonValue) => (v === 1 ? 'A' : String(v))

/**
 * Recognises a Blackjack state (`{ player, dealer, rng_state }`, the RNG in CPython's getstate()
 * shape: its position is the index after the 624 words) and a counter (`{ counter }`).
 */
export function statePicture(state: JsonValue): StatePicture {
  if (!isObject(state)) return { kind: 'other' }
  const { player, dealer, rng_state: rng, counter } = state
  if (Array.isArray(player) && Array.isArray(dealer)) {
    let rngPosition: number | null = null
    if (Array.isArray(rng) && Array.isArray(rng[1])) {
      const last = rng[1][rng[1].length - 1]
      if (typeof last === 'number') rngPosition = last
    }
    return { kind: 'blackjack', player: player.map(card), dealer: dealer.map(card), rngPosition }
  }
  if (typeof counter === 'number') return { kind: 'counter', value: counter }
  return { kind: 'other' }
}

import type { PyRandom } from '../../rng/PyRandom.ts'

/** The 13 ranks of the infinite deck, in the reference's order (the order `choice` indexes). */
export const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'] as const

/** One card from the infinite deck: `rng.choice(_RANKS)`. */
export function deal(rng: PyRandom): string {
  return rng.choice(RANKS)
}

/** `_hand_value`: J/Q/K 10, A 11, then one 10 off per ace while over 21. */
export function handValue(hand: readonly string[]): number {
  let total = 0
  let aces = 0
  for (const card of hand) {
    if (card === 'J' || card === 'Q' || card === 'K') total += 10
    else if (card === 'A') {
      total += 11
      aces++
    } else total += Number.parseInt(card, 10)
  }
  while (total > 21 && aces > 0) {
    total -= 10
    aces--
  }
  return total
}

/** `fmt(hand)`: `[8, 5, 3, Q]`. */
export function formatHand(hand: readonly string[]): string {
  return `[${hand.join(', ')}]`
}

/** The observation after reset and after a non-bust hit. */
export function observation(player: readonly string[], dealer: readonly string[]): string {
  return `Your hand: ${formatHand(player)} = ${handValue(player)}\nDealer shows: ${dealer[0] ?? ''}\nRespond with <action>hit</action> or <action>stand</action>.`
}

/**
 * Action parsing: the first `<action>hit|stand</action>` (case-insensitive); anything else stands.
 */
export function parseAction(text: string): 'hit' | 'stand' {
  const m = /<action>\s*(hit|stand)\s*<\/action>/i.exec(text)
  return m?.[1]?.toLowerCase() === 'hit' ? 'hit' : 'stand'
}

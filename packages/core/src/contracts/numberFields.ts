/**
 * The rules of a run's number fields, one wording for the form, the CLI and the API
 * (docs/protocol.md §12.1): integers are plain decimal digits (no sign, exponent, fraction, hex or
 * spaces) within a range; a seed is decimal digits of any size.
 */

export const MAX_ROLLOUTS = 10_000
export const MAX_DEADLINE_MS = 3_600_000

/** The integer fields of a run config and their ranges. */
export const INTEGER_FIELDS = {
  rollouts: { min: 1, max: MAX_ROLLOUTS },
  deadline_ms: { min: 0, max: MAX_DEADLINE_MS },
} as const

/** `takes an integer from 1 to 10000`: the rule's wording. */
export const integerRule = (min: number, max: number): string =>
  `takes an integer from ${min} to ${max}`
export const SEED_RULE = 'takes a non-negative decimal integer of any size'

/** Why `text` is not an integer in [min, max] (null when it is). */
export function integerTextProblem(text: string, min: number, max: number): string | null {
  const value = Number(text)
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max)
    return `${integerRule(min, max)}, got '${text}'`
  return null
}

/** Why `text` is not a seed (null when it is). */
export function seedTextProblem(text: string): string | null {
  return /^[0-9]+$/.test(text)
    ? null
    : `${SEED_RULE}, got '${text.length > 40 ? `${text.slice(0, 40)}…` : text}'`
}

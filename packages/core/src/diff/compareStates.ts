import type { StateDifference } from '../contracts/runDiff.ts'
import { canonicalJson } from '../json.ts'

/**
 * The items of two runs' states at one step that differ, matched by id: participant cards by
 * participant id, session rows by session key. Items on one side only are differences too. Sorted
 * by id. Pure.
 */
export function compareStates<T>(
  a: readonly T[],
  b: readonly T[],
  idOf: (item: T) => string,
): StateDifference<T>[] {
  const byId = new Map<string, { a: T | null; b: T | null }>()
  for (const item of a) byId.set(idOf(item), { a: item, b: null })
  for (const item of b) {
    const entry = byId.get(idOf(item))
    if (entry === undefined) byId.set(idOf(item), { a: null, b: item })
    else entry.b = item
  }
  return [...byId.entries()]
    .filter(
      ([, { a: x, b: y }]) => x === null || y === null || canonicalJson(x) !== canonicalJson(y),
    )
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([id, pair]) => ({ id, ...pair }))
}

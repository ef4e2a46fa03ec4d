/** `r0…r8`, `r000…r999`: zero-padded wide enough for the run (docs/protocol.md §12.1). */
export function rolloutIds(count: number): readonly string[] {
  const width = String(Math.max(0, count - 1)).length
  return Array.from({ length: count }, (_, i) => `r${String(i).padStart(width, '0')}`)
}

/**
 * How a fault names a rollout of a `count`-rollout run: `an id as the run prints it ("r00"…"r89")
 * or an index (0…89)`.
 */
export function rolloutNamingHint(count: number): string {
  const ids = rolloutIds(count)
  const last = count - 1
  return count === 1
    ? `its id as the run prints it ("${ids[0]}") or its index (0)`
    : `an id as the run prints it ("${ids[0]}"…"${ids[last]}") or an index (0…${last})`
}

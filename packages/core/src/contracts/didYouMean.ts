/** Edit distance (insertions, deletions, substitutions) between two short names. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution))
    }
    previous = current
  }
  return previous[b.length] ?? 0
}

/**
 * The candidate a mistyped `input` most likely meant: the nearest by edit distance (case and
 * `_`/`-` ignored), when it is within a third of the name's length (at least 2 edits), or one
 * starts with the other; otherwise undefined.
 */
export function didYouMean(input: string, candidates: readonly string[]): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/_/g, '-')
  const wanted = norm(input)
  let best: { name: string; distance: number } | undefined
  for (const name of candidates) {
    const candidate = norm(name)
    const distance =
      wanted.length >= 3 && (candidate.startsWith(wanted) || wanted.startsWith(candidate))
        ? 1
        : editDistance(wanted, candidate)
    if (best === undefined || distance < best.distance) best = { name, distance }
  }
  if (best === undefined) return undefined
  return best.distance <= Math.max(2, Math.floor(best.name.length / 3)) ? best.name : undefined
}

/** `unknown <what> 'x' — did you mean 'y'? (one of a, b, c)`; no hint when none is near. */
export function unknownNameMessage(what: string, input: string, names: readonly string[]): string {
  const near = didYouMean(input, names)
  const hint = near === undefined ? '' : ` — did you mean '${near}'?`
  return `unknown ${what} '${input}'${hint} (one of ${names.join(', ')})`
}

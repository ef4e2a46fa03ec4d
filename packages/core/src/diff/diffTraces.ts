import type { TraceEvent } from '../contracts/trace.ts'
import { canonicalJson } from '../json.ts'

/**
 * One difference between two aligned traces: the events of A replaced by the events of B at that
 * point (one side may be empty: events only one run has). `step_a`/`step_b` are the 1-based steps
 * of the first event of each side, or — for an empty side — the step its next event would have.
 */
export interface TraceDifference {
  readonly step_a: number
  readonly step_b: number
  readonly a: readonly TraceEvent[]
  readonly b: readonly TraceEvent[]
}

/** Two traces aligned: identical or not, and each difference in trace order. */
export interface TraceDiff {
  /** Same events (step numbers aside) with the same virtual times. */
  readonly identical: boolean
  /**
   * Content differences in order; when only virtual times differ, one difference at the first event
   * whose time differs.
   */
  readonly differences: readonly TraceDifference[]
  /**
   * True when the traces differ in more than `maxEdits` events past their common prefix: the rest
   * is one difference.
   */
  readonly truncated: boolean
}

/** What aligns two events: everything but the step number and the virtual time. */
const contentKey = (e: TraceEvent): string =>
  canonicalJson({
    phase: e.phase,
    from: e.from,
    to: e.to,
    type: e.type,
    payload: e.payload,
    outcome: e.outcome,
  })

/**
 * Aligns two traces and lists where they differ, first divergence first (docs/inspector.md, "diff
 * two runs"). Events align on their content — phase, sender, receiver, type, payload, outcome — so
 * a run whose clock was shifted by a delay still lines up; the common prefix and suffix are matched
 * outright, the middle anchored on events unique to both sides and the rest by Myers' shortest edit
 * script, bounded by `maxEdits` per unanchored stretch (past it that stretch is one difference and
 * `truncated` is set). Pure and deterministic.
 */
export function diffTraces(
  a: readonly TraceEvent[],
  b: readonly TraceEvent[],
  maxEdits = 2000,
): TraceDiff {
  // Keys as small integers: the edit script compares numbers, not strings.
  const ids = new Map<string, number>()
  const intern = (e: TraceEvent) => {
    const key = contentKey(e)
    let id = ids.get(key)
    if (id === undefined) ids.set(key, (id = ids.size))
    return id
  }
  const ka = a.map(intern)
  const kb = b.map(intern)
  let prefix = 0
  while (prefix < ka.length && prefix < kb.length && ka[prefix] === kb[prefix]) prefix++
  let suffix = 0
  while (
    suffix < ka.length - prefix &&
    suffix < kb.length - prefix &&
    ka[ka.length - 1 - suffix] === kb[kb.length - 1 - suffix]
  )
    suffix++
  const midA = ka.slice(prefix, ka.length - suffix)
  const midB = kb.slice(prefix, kb.length - suffix)

  if (midA.length === 0 && midB.length === 0) {
    const shifted = a.findIndex((e, i) => e.time_ms !== b[i]?.time_ms)
    if (shifted < 0) return { identical: true, differences: [], truncated: false }
    return {
      identical: false,
      differences: [
        {
          step_a: shifted + 1,
          step_b: shifted + 1,
          a: [a[shifted] as TraceEvent],
          b: [b[shifted] as TraceEvent],
        },
      ],
      truncated: false,
    }
  }

  const hunk = (fromA: number, toA: number, fromB: number, toB: number): TraceDifference => ({
    step_a: prefix + fromA + 1,
    step_b: prefix + fromB + 1,
    a: a.slice(prefix + fromA, prefix + toA),
    b: b.slice(prefix + fromB, prefix + toB),
  })
  const matched = { pairs: [] as [number, number][], truncated: false }
  alignStretch(midA, midB, 0, midA.length, 0, midB.length, maxEdits, matched, 0)
  const script = matched.pairs
  // Walk the matched pairs; each gap between consecutive matches is one difference.
  const differences: TraceDifference[] = []
  let i = 0
  let j = 0
  for (const [mi, mj] of [...script, [midA.length, midB.length] as const]) {
    if (mi > i || mj > j) differences.push(hunk(i, mi, j, mj))
    i = mi + 1
    j = mj + 1
  }
  return { identical: false, differences, truncated: matched.truncated }
}

/** Nesting of anchored stretches after which a stretch is aligned by the edit script alone. */
const MAX_DEPTH = 48

/**
 * Appends, in order, the matched index pairs of `a[aLo, aHi)` and `b[bLo, bHi)`. Patience-style:
 * keys that occur exactly once on each side anchor the alignment (their longest increasing run),
 * the stretches between anchors are aligned in turn, and a stretch without anchors by Myers'
 * shortest edit script — bounded by `maxEdits`: past it the stretch stays unmatched and
 * `truncated` is set. Near-linear on long traces whose events carry ids; exact on short ones.
 */
function alignStretch(
  a: readonly number[],
  b: readonly number[],
  aLo: number,
  aHi: number,
  bLo: number,
  bHi: number,
  maxEdits: number,
  out: { pairs: [number, number][]; truncated: boolean },
  depth: number,
): void {
  while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) out.pairs.push([aLo++, bLo++])
  let tail = 0
  while (aLo < aHi - tail && bLo < bHi - tail && a[aHi - 1 - tail] === b[bHi - 1 - tail]) tail++
  const aEnd = aHi - tail
  const bEnd = bHi - tail
  if (aLo < aEnd && bLo < bEnd) {
    const anchors = depth < MAX_DEPTH ? uniqueAnchors(a, b, aLo, aEnd, bLo, bEnd) : []
    if (anchors.length > 0) {
      let pa = aLo
      let pb = bLo
      for (const [x, y] of anchors) {
        alignStretch(a, b, pa, x, pb, y, maxEdits, out, depth + 1)
        out.pairs.push([x, y])
        pa = x + 1
        pb = y + 1
      }
      alignStretch(a, b, pa, aEnd, pb, bEnd, maxEdits, out, depth + 1)
    } else {
      const script = editScript(a.slice(aLo, aEnd), b.slice(bLo, bEnd), maxEdits)
      if (script === undefined) out.truncated = true
      else for (const [x, y] of script) out.pairs.push([aLo + x, bLo + y])
    }
  }
  for (let i = tail; i > 0; i--) out.pairs.push([aHi - i, bHi - i])
}

/**
 * Pairs of positions whose key occurs exactly once in each stretch, kept where they form the
 * longest run increasing on both sides (patience sorting), in order.
 */
function uniqueAnchors(
  a: readonly number[],
  b: readonly number[],
  aLo: number,
  aHi: number,
  bLo: number,
  bHi: number,
): [number, number][] {
  const count = new Map<number, { a: number; b: number; at: number; bt: number }>()
  for (let i = aLo; i < aHi; i++) {
    const k = a[i] as number
    const c = count.get(k)
    if (c === undefined) count.set(k, { a: 1, b: 0, at: i, bt: -1 })
    else c.a++
  }
  for (let j = bLo; j < bHi; j++) {
    const c = count.get(b[j] as number)
    if (c === undefined) continue
    c.b++
    c.bt = j
  }
  const candidates: [number, number][] = []
  for (const c of count.values()) if (c.a === 1 && c.b === 1) candidates.push([c.at, c.bt])
  if (candidates.length === 0) return []
  candidates.sort((x, y) => x[0] - y[0])
  // longest increasing subsequence of the b positions, with back links
  const tails: number[] = []
  const back = new Int32Array(candidates.length).fill(-1)
  for (let i = 0; i < candidates.length; i++) {
    const y = (candidates[i] as [number, number])[1]
    let lo = 0
    let hi = tails.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((candidates[tails[mid] as number] as [number, number])[1] < y) lo = mid + 1
      else hi = mid
    }
    if (lo > 0) back[i] = tails[lo - 1] as number
    tails[lo] = i
  }
  const run: [number, number][] = []
  for (let i = tails[tails.length - 1] as number; i >= 0; i = back[i] as number)
    run.push(candidates[i] as [number, number])
  return run.reverse()
}

/**
 * Myers' O((N+M)·D) shortest edit script: the matched index pairs of a longest common subsequence,
 * in order, or undefined when more than `maxEdits` insertions and deletions are needed.
 */
function editScript(
  a: readonly number[],
  b: readonly number[],
  maxEdits: number,
): (readonly [number, number])[] | undefined {
  const n = a.length
  const m = b.length
  const max = Math.min(n + m, maxEdits)
  const offset = max + 1
  const v = new Int32Array(2 * max + 3)
  const trace: Int32Array[] = []
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice())
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))
          ? (v[offset + k + 1] as number)
          : (v[offset + k - 1] as number) + 1
      let y = x - k
      while (x < n && y < m && a[x] === b[y]) {
        x++
        y++
      }
      v[offset + k] = x
      if (x >= n && y >= m) return backtrack(trace, a, b, d, offset)
    }
  }
  return undefined
}

/** Recovers the matched pairs from the saved frontier of each edit count. */
function backtrack(
  trace: readonly Int32Array[],
  a: readonly number[],
  b: readonly number[],
  dEnd: number,
  offset: number,
): (readonly [number, number])[] {
  const pairs: (readonly [number, number])[] = []
  let x = a.length
  let y = b.length
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d] as Int32Array
    const k = x - y
    const prevK =
      k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))
        ? k + 1
        : k - 1
    const prevX = v[offset + prevK] as number
    const prevY = prevX - prevK
    while (x > prevX && y > prevY) {
      x--
      y--
      pairs.push([x, y])
    }
    x = prevX
    y = prevY
  }
  while (x > 0 && y > 0) {
    x--
    y--
    pairs.push([x, y])
  }
  return pairs.reverse()
}

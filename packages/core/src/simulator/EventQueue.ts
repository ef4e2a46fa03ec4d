/**
 * The simulator's agenda: callbacks ordered by virtual time, ties broken by insertion order so the
 * same schedule always runs in the same order (determinism).
 */
export class EventQueue {
  readonly #heap: { time: number; seq: number; run: () => void }[] = []
  #seq = 0

  get size(): number {
    return this.#heap.length
  }

  push(time: number, run: () => void): void {
    const h = this.#heap
    h.push({ time, seq: this.#seq++, run })
    let i = h.length - 1
    while (i > 0) {
      const p = (i - 1) >> 1
      if (!less(h[i]!, h[p]!)) break
      ;[h[i], h[p]] = [h[p]!, h[i]!]
      i = p
    }
  }

  pop(): { time: number; run: () => void } | undefined {
    const h = this.#heap
    const top = h[0]
    if (top === undefined) return undefined
    const last = h.pop()!
    if (h.length > 0) {
      h[0] = last
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        const r = l + 1
        let m = i
        if (l < h.length && less(h[l]!, h[m]!)) m = l
        if (r < h.length && less(h[r]!, h[m]!)) m = r
        if (m === i) break
        ;[h[i], h[m]] = [h[m]!, h[i]!]
        i = m
      }
    }
    return top
  }
}

const less = (a: { time: number; seq: number }, b: { time: number; seq: number }): boolean =>
  a.time < b.time || (a.time === b.time && a.seq < b.seq)

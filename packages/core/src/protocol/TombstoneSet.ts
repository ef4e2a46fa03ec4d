import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import { executionKey } from '../records/ExecutionIdentity.ts'

/** What views read of a participant's tombstones: how many, and the first `count` added, sorted. */
export interface TombstoneReader {
  readonly size: number
  sortedFirst(count: number): readonly string[]
}

/**
 * The fenced attempts of one participant (docs/protocol.md §3.1 "tombstones"): execution keys that
 * may never act again. Every participant keeps one beside its ControlFence; the sorted list is
 * cached because views read it after every trace event.
 */
export class TombstoneSet implements TombstoneReader {
  readonly #keys = new Set<string>()
  /** Keys in the order they were added (append-only): a view records a count, not a copy. */
  readonly #log: string[] = []
  /** The last few `sortedFirst` answers by count (views re-ask for the step they show). */
  readonly #prefixes = new Map<number, readonly string[]>()
  #sorted: readonly string[] = []
  /**
   * Keys added since `#sorted` was built: merged in on the next read (adds and reads alternate, so
   * re-sorting everything each time was quadratic).
   */
  #added: string[] = []

  /** Fences an attempt (idempotent). */
  add(id: ExecutionIdentity | string): void {
    const key = typeof id === 'string' ? id : executionKey(id)
    if (this.#keys.has(key)) return
    this.#keys.add(key)
    this.#log.push(key)
    this.#added.push(key)
  }
  has(id: ExecutionIdentity | string): boolean {
    return this.#keys.has(typeof id === 'string' ? id : executionKey(id))
  }
  get size(): number {
    return this.#keys.size
  }
  /** Execution keys, sorted (the same array until the set changes). */
  sorted(): readonly string[] {
    if (this.#added.length > 0) {
      // A new array (views keep the old one), merged from two sorted runs; keys are unique.
      const added = this.#added.sort()
      this.#added = []
      const old = this.#sorted
      const out: string[] = new Array<string>(old.length + added.length)
      let i = 0
      let j = 0
      let k = 0
      while (i < old.length && j < added.length)
        out[k++] =
          (old[i] as string) < (added[j] as string) ? (old[i++] as string) : (added[j++] as string)
      while (i < old.length) out[k++] = old[i++] as string
      while (j < added.length) out[k++] = added[j++] as string
      this.#sorted = out
    }
    return this.#sorted
  }

  /**
   * The first `count` keys added, sorted: the set as it was when it held `count` keys (keys are
   * never removed).
   */
  sortedFirst(count: number): readonly string[] {
    if (count >= this.#log.length) return this.sorted()
    let hit = this.#prefixes.get(count)
    if (hit === undefined) {
      hit = this.#log.slice(0, count).sort()
      if (this.#prefixes.size >= 16)
        this.#prefixes.delete(this.#prefixes.keys().next().value as number)
      this.#prefixes.set(count, hit)
    }
    return hit
  }
}

import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import { executionKey } from '../records/ExecutionIdentity.ts'

/**
 * The fenced attempts of one participant (PROTOCOL.md §3.1 "tombstones"): execution keys that may
 * never act again. Every participant keeps one beside its ControlFence; the sorted list is cached
 * because views read it after every trace event.
 */
export class TombstoneSet {
  readonly #keys = new Set<string>()
  #sorted: readonly string[] = []
  /** Keys added since `#sorted` was built: merged in on the next read (adds and reads alternate, so re-sorting everything each time was quadratic). */
  #added: string[] = []

  /** Fences an attempt (idempotent). */
  add(id: ExecutionIdentity | string): void {
    const key = typeof id === 'string' ? id : executionKey(id)
    if (this.#keys.has(key)) return
    this.#keys.add(key)
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
      while (i < old.length && j < added.length) out[k++] = (old[i] as string) < (added[j] as string) ? (old[i++] as string) : (added[j++] as string)
      while (i < old.length) out[k++] = old[i++] as string
      while (j < added.length) out[k++] = added[j++] as string
      this.#sorted = out
    }
    return this.#sorted
  }
}

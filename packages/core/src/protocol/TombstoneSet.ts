import type { ExecutionIdentity } from './records.ts'
import { executionKey } from './records.ts'

/**
 * The fenced attempts of one participant (PROTOCOL.md §3.1 "tombstones"): execution keys that may
 * never act again. Every participant keeps one beside its ControlFence; the sorted list is cached
 * because views read it after every trace event.
 */
export class TombstoneSet {
  readonly #keys = new Set<string>()
  #sorted: readonly string[] | null = null

  /** Fences an attempt (idempotent). */
  add(id: ExecutionIdentity | string): void {
    const key = typeof id === 'string' ? id : executionKey(id)
    if (this.#keys.has(key)) return
    this.#keys.add(key)
    this.#sorted = null
  }
  has(id: ExecutionIdentity | string): boolean {
    return this.#keys.has(typeof id === 'string' ? id : executionKey(id))
  }
  get size(): number {
    return this.#keys.size
  }
  /** Execution keys, sorted (the same array until the set changes). */
  sorted(): readonly string[] {
    if (this.#sorted === null) this.#sorted = [...this.#keys].sort()
    return this.#sorted
  }
}

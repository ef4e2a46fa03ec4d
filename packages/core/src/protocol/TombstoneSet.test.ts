import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TombstoneSet } from './TombstoneSet.ts'

describe('TombstoneSet', () => {
  it('[tombstones] sorted() is every fenced key in sort order, whatever the interleaving of adds and reads; an earlier list never changes', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string({ maxLength: 6 }).map((k) => ({ add: `r${k}.a0` })),
            fc.constant({ read: true }),
          ),
          { maxLength: 60 },
        ),
        (ops) => {
          const set = new TombstoneSet()
          const keys = new Set<string>()
          const snapshots: { list: readonly string[]; copy: string[] }[] = []
          for (const op of ops) {
            if ('add' in op) {
              set.add(op.add)
              keys.add(op.add)
            } else {
              const list = set.sorted()
              expect(list).toEqual([...keys].sort())
              snapshots.push({ list, copy: [...list] })
            }
          }
          expect(set.sorted()).toEqual([...keys].sort())
          expect(set.size).toBe(keys.size)
          for (const s of snapshots) expect(s.list).toEqual(s.copy)
        },
      ),
      { numRuns: 300, seed: 11 },
    )
  })

  it('[tombstones] the same array is returned until the set changes', () => {
    const set = new TombstoneSet()
    set.add({ rollout_id: 'r2', attempt_index: 0 })
    const a = set.sorted()
    set.add({ rollout_id: 'r2', attempt_index: 0 })
    expect(set.sorted()).toBe(a)
    set.add('r1.a0')
    expect(set.sorted()).not.toBe(a)
    expect(set.sorted()).toEqual(['r1.a0', 'r2.a0'])
  })
})

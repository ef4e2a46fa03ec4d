import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Cell, Row, Table } from './Table.ts'
import { createHash } from 'node:crypto'
import { loadNodeWorkplaceData } from '../../adapters/nodeWorkplaceData.ts'
import type { JsonValue } from '../../json.ts'
import { parseWorkplaceBase } from './WorkplaceData.ts'
import { SESSION_TABLES } from './WorkplaceSession.ts'
import { gradedTablesEqual, replayActions, verifyWorkplace } from './verifyWorkplace.ts'

const RAW = new Set(['status', 'list_name', 'board'])
/** The plain definition: lowercase every cell of both tables, then compare their JSON forms. */
function naiveEqual(a: Table, b: Table): boolean {
  const graded = (t: Table) =>
    JSON.stringify({
      columns: t.columns,
      labels: t.labels,
      rows: t.rows.map((r) =>
        t.columns.map((c, i) =>
          RAW.has(c)
            ? (r[i] ?? null)
            : typeof r[i] === 'string'
              ? (r[i] as string).toLowerCase()
              : null,
        ),
      ),
    })
  return graded(a) === graded(b)
}

const cell: fc.Arbitrary<Cell> = fc.oneof(
  fc.constantFrom('a', 'A', 'b', 'Won', 'won', '1'),
  fc.constant(null),
  fc.integer({ min: 0, max: 2 }),
  fc.boolean(),
  fc.constant<Cell>([1]),
)
const columns = ['name', 'status', 'email']

/**
 * A base table and two copy-on-write edits of it (shared rows, some replaced, some dropped, some
 * added).
 */
const edited = (base: Table) =>
  fc
    .record({
      drop: fc.array(fc.boolean(), { minLength: base.rows.length, maxLength: base.rows.length }),
      change: fc.array(fc.option(fc.tuple(fc.nat(2), cell)), {
        minLength: base.rows.length,
        maxLength: base.rows.length,
      }),
      add: fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), { maxLength: 2 }),
      relabel: fc.boolean(),
    })
    .map(({ drop, change, add, relabel }): Table => {
      const rows: Row[] = []
      const labels: number[] = []
      base.rows.forEach((r, i) => {
        if (drop[i]) return
        const c = change[i]
        rows.push(c ? r.map((v, j) => (j === c[0] ? c[1] : v)) : r)
        labels.push(base.labels[i] as number)
      })
      for (const r of add) {
        rows.push(r)
        labels.push(0)
      }
      return { columns: base.columns, labels: relabel ? rows.map((_, i) => i) : labels, rows }
    })

describe('gradedTablesEqual', () => {
  it('[wa-verify] identity shortcuts give exactly the lowercased cell-by-cell comparison', () => {
    const scenario = fc
      .array(fc.array(cell, { minLength: 3, maxLength: 3 }), { maxLength: 5 })
      .map((rows): Table => ({ columns, labels: rows.map((_, i) => i), rows }))
      .chain((base) =>
        fc.tuple(
          fc.constant(base),
          fc.oneof(fc.constant(base), edited(base)),
          fc.oneof(fc.constant(base), edited(base)),
        ),
      )
    fc.assert(
      fc.property(scenario, ([, p, g]) => {
        expect(gradedTablesEqual(p, g)).toBe(naiveEqual(p, g))
        expect(gradedTablesEqual(g, p)).toBe(naiveEqual(g, p))
      }),
      { numRuns: 2000, seed: 7 },
    )
  })
})

describe('verifyWorkplace', () => {
  it('[wa-verify] call lists replayed once per JSON text grade every prediction as a fresh replay of both lists does', () => {
    const base = parseWorkplaceBase(loadNodeWorkplaceData(), {
      sha256Hex: (d) => createHash('sha256').update(d).digest('hex'),
    })
    const truths = base.examples.map((e) => e.ground_truth as JsonValue)
    // Each prediction is another task's ground truth (mostly wrong) or its own (right), graded
    // twice: the second time from the cache.
    let right = 0
    for (let pass = 0; pass < 2; pass++)
      for (const [i, gt] of truths.entries())
        for (const predicted of [
          gt,
          truths[(i + 1) % truths.length] as JsonValue,
          truths[(i + 7) % truths.length] as JsonValue,
        ]) {
          const p = replayActions(base, predicted)
          const g = replayActions(base, gt)
          const fresh = SESSION_TABLES.every((name) =>
            gradedTablesEqual(p.tables[name], g.tables[name]),
          )
            ? 1
            : 0
          expect(verifyWorkplace(base, predicted, gt)).toBe(fresh)
          right += fresh
        }
    // Both grades occur: a task's own calls grade 1 (both passes), another task's do not.
    expect(right).toBeGreaterThanOrEqual(2 * truths.length)
    expect(right).toBeLessThan(2 * 3 * truths.length)
    expect(truths.every(Array.isArray)).toBe(true)
  })
})

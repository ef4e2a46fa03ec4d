import { describe, expect, it } from 'vitest'
import { SPEC_RULES } from './specRules.ts'

describe('the conformance index (PROTOCOL.md §3, §4, §6, §8)', () => {
  it('[conformance] rule ids are unique, dotted, and every rule names its sources and one line of text', () => {
    const ids = SPEC_RULES.map((r) => r.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const r of SPEC_RULES) {
      expect(r.id).toMatch(/^[a-z]+\.[a-z0-9-]+$/)
      expect(r.sources.length).toBeGreaterThan(0)
      for (const s of r.sources) expect(s).toMatch(/^§\d/)
      expect(r.rule).not.toContain('\n')
    }
  })

  it('[conformance] every §8 row of PROTOCOL.md is named by at least one rule', () => {
    const rows = new Set(SPEC_RULES.flatMap((r) => r.sources.filter((s) => s.startsWith('§8 '))))
    // The §8 table has 34 rows; a rule may cover several and several rules may share one.
    expect(rows.size).toBeGreaterThanOrEqual(30)
  })
})

import { describe, expect, it } from 'vitest'
import { SPEC_RULES } from './specRules.ts'

describe('the conformance index (docs/protocol.md §3, §4, §6, §8)', () => {
  it('[conformance] rule ids are unique, dotted, and every rule names its sources and one line of text', () => {
    const ids = SPEC_RULES.map((r) => r.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const r of SPEC_RULES) {
      expect(r.id).toMatch(/^[a-z]+\.[a-z0-9-]+$/)
      expect(r.sources.length).toBeGreaterThan(0)
      for (const s of r.sources) expect(s).toMatch(/^(§\d|docs\/[a-z-]+\.md\b)/)
      expect(r.rule).not.toContain('\n')
    }
  })

  it('[conformance] every row of the docs/protocol.md §8 table is named by at least one rule', () => {
    const rows = [
      'new policy generation during drain/paused',
      'active generation at prepare',
      'active generation (generation-safe mode)',
      'completed before egress',
      'abort_inflight then commit',
      'call from aborted/retired attempt after restore',
      'same checkpoint op retried',
      'finished checkpoint id',
      'id B while A active',
      'operation in wrong phase',
      'multi-worker service without coordinator',
      'worker missing / extra at close',
      'worker (re)joins during checkpoint',
      'agent execution between boundaries at deadline',
      'boundary-less park',
      'completed results awaiting ack',
      'actor sees terminal-but-unreleased results at prepare',
      'duplicate /run for a live attempt',
      'receipt replay',
      'resources mutation replay',
      'expected revision mismatch',
      'mutation before bind',
      'handler raises / incomplete response',
      'stateful traffic without identity',
      'receipt capacity / evicted history',
      'terminal request races prepare lock',
      'restore into a process that served traffic',
      'corrupt / missing / torn snapshot',
      'restore failure (model)',
      'restore race',
      'participant set changed between commit and restore',
      'lost response to prepare/restore',
      'agent/resources revision disagreement',
      'deadline already passed',
    ].map((r) => `§8 ${r}`)
    expect(rows).toHaveLength(34)
    const named = new Set(SPEC_RULES.flatMap((r) => r.sources.filter((s) => s.startsWith('§8 '))))
    expect([...named].sort()).toEqual([...rows].sort())
  })
})

import { describe, expect, it } from 'vitest'
import { sessionRows } from '../test/fixtures.ts'
import { sortSessions } from './sortSessions.ts'

describe('sortSessions', () => {
  it('[sort] rows already in order come back in that order; others are sorted with ties in the API order', () => {
    const rows = sessionRows(30)
    expect(sortSessions(rows, '', { column: 'rollout_id', direction: 'asc' })).toEqual(rows)
    expect(sortSessions(rows, '', { column: 'rollout_id', direction: 'desc' })).toEqual([...rows].reverse())
    const byRevision = sortSessions(rows, '', { column: 'revision', direction: 'asc' })
    expect(byRevision.map((r) => r.revision)).toEqual([...rows.map((r) => r.revision)].sort((a, b) => (a ?? 0) - (b ?? 0)))
    // ties (the same revision) keep the API's order
    expect(byRevision.filter((r) => r.revision === 0).map((r) => r.key)).toEqual(rows.filter((r) => r.revision === 0).map((r) => r.key))
    // numeric collation: r2 before r10
    const mixed = [{ ...rows[0]!, rollout_id: 'r10' }, { ...rows[1]!, rollout_id: 'r2' }]
    expect(sortSessions(mixed, '', { column: 'rollout_id', direction: 'asc' }).map((r) => r.rollout_id)).toEqual(['r2', 'r10'])
  })
})

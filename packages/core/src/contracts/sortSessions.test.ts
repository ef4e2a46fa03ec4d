import { describe, expect, it } from 'vitest'
import { ENV_NAMES } from './environments.ts'
import { sortSessions } from './sortSessions.ts'
import type { SessionRow } from './views.ts'

/** `count` rows in key order, with repeating revisions (ties) and some null sessions. */
const sessionRows = (count: number): SessionRow[] =>
  Array.from({ length: count }, (_, i) => {
    const rollout = `r${String(i).padStart(2, '0')}`
    return {
      key: `${rollout}.a0`,
      rollout_id: rollout,
      attempt: 0,
      environment: ENV_NAMES[i % ENV_NAMES.length] ?? 'counter',
      state: i % 7 === 0 ? 'retired' : 'bound',
      revision: i % 5,
      session_id: i % 6 === 0 ? null : `s${i}`,
      summary: `count ${i}`,
    }
  })

describe('sortSessions', () => {
  it('[sort] rows already in order come back in that order; others are sorted with ties in the API order', () => {
    const rows = sessionRows(30)
    expect(sortSessions(rows, '', { column: 'rollout_id', direction: 'asc' })).toEqual(rows)
    expect(sortSessions(rows, '', { column: 'rollout_id', direction: 'desc' })).toEqual(
      [...rows].reverse(),
    )
    const byRevision = sortSessions(rows, '', { column: 'revision', direction: 'asc' })
    expect(byRevision.map((r) => r.revision)).toEqual(
      [...rows.map((r) => r.revision)].sort((a, b) => (a ?? 0) - (b ?? 0)),
    )
    // ties (the same revision) keep the API's order
    expect(byRevision.filter((r) => r.revision === 0).map((r) => r.key)).toEqual(
      rows.filter((r) => r.revision === 0).map((r) => r.key),
    )
    // numeric collation: r2 before r10
    const mixed = [
      { ...rows[0]!, rollout_id: 'r10' },
      { ...rows[1]!, rollout_id: 'r2' },
    ]
    expect(
      sortSessions(mixed, '', { column: 'rollout_id', direction: 'asc' }).map((r) => r.rollout_id),
    ).toEqual(['r2', 'r10'])
  })

  it('[sort] nulls sort after every value ascending (before them descending); the filter is trimmed, case-insensitive, on any column or the key', () => {
    const rows = sessionRows(30)
    const asc = sortSessions(rows, '', { column: 'session_id', direction: 'asc' })
    expect(asc.slice(-5).every((r) => r.session_id === null)).toBe(true)
    const desc = sortSessions(rows, '', { column: 'session_id', direction: 'desc' })
    expect(desc.slice(0, 5).every((r) => r.session_id === null)).toBe(true)
    expect(
      sortSessions(rows, '  RETIRED ', { column: 'rollout_id', direction: 'asc' }).map(
        (r) => r.key,
      ),
    ).toEqual(rows.filter((r) => r.state === 'retired').map((r) => r.key))
    expect(
      sortSessions(rows, 'r03.a0', { column: 'rollout_id', direction: 'asc' }).map((r) => r.key),
    ).toEqual(['r03.a0'])
  })
})

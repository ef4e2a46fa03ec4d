import { describe, expect, it } from 'vitest'
import type { RunView } from '@cutover/core/contracts'
import { ALL_PASS } from '../test/fixtures.ts'
import { NO_RUN_FILTERS, directoryEntry, filterRuns, runEntry } from './runFilters.ts'

const run = (over: Partial<RunView> & { id: string; created_at: string }): RunView => ({
  kind: 'simulated',
  scenario: 'happy-path',
  seed: '1',
  rollouts: 9,
  deadline_ms: 100,
  faults: [],
  inert_faults: [],
  status: 'complete',
  events: 200,
  outcome: 'completed',
  checkpoints: [],
  damaged: [],
  invariants: ALL_PASS,
  failures: [],
  ...over,
})

const RUNS = [
  run({ id: 'a1', created_at: '2026-01-01T00:00:01Z' }),
  run({
    id: 'b2',
    created_at: '2026-01-01T00:00:03Z',
    scenario: 'straggler-retirement',
    faults: [{ kind: 'straggler', rollout: 'r0', extra_ms: 400 }],
  }),
  run({
    id: 'c3',
    created_at: '2026-01-01T00:00:02Z',
    bug: 'resume-agents-first',
    status: 'failed',
    invariants: { ...ALL_PASS, 'resume-order': 'fail' },
  }),
  // kinds and statuses other parts of the server add list the same way
  run({ id: 'd4', created_at: '2026-01-01T00:00:04Z', kind: 'recorded' as RunView['kind'] }),
  run({ id: 'e5', created_at: '2026-01-01T00:00:00Z', status: 'damaged' as RunView['status'] }),
].map(runEntry)

const ids = (filters: Partial<typeof NO_RUN_FILTERS>) =>
  filterRuns(RUNS, { ...NO_RUN_FILTERS, ...filters }).map((e) => e.id)

describe('runs list filters', () => {
  it('[runs] newest first; search by id or text (every word must match)', () => {
    expect(ids({})).toEqual(['d4', 'b2', 'c3', 'a1', 'e5'])
    expect(ids({ q: 'c3' })).toEqual(['c3'])
    expect(ids({ q: 'straggler r0' })).toEqual(['b2'])
    expect(ids({ q: 'resume-order' })).toEqual(['c3'])
  })

  it('[runs] scenario, status (damaged too), kind (recorded too), bug and failing invariant', () => {
    expect(ids({ scenario: 'straggler-retirement' })).toEqual(['b2'])
    expect(ids({ status: 'failed' })).toEqual(['c3'])
    expect(ids({ status: 'damaged' })).toEqual(['e5'])
    expect(ids({ kind: 'recorded' })).toEqual(['d4'])
    expect(ids({ bug: 'resume-agents-first' })).toEqual(['c3'])
    expect(ids({ bug: 'none' })).not.toContain('c3')
    expect(ids({ invariant: 'resume-order' })).toEqual(['c3'])
    expect(ids({ kind: 'fleet' })).toEqual([])
  })

  it('[runs] a checkpoint directory is a row of kind directory, found by its path', () => {
    const dir = directoryEntry({
      id: 'dir0',
      path: '/data/ck-1',
      created_at: '2026-01-02T00:00:00Z',
    })
    const rows = filterRuns([...RUNS, dir], { ...NO_RUN_FILTERS, kind: 'directory' })
    expect(rows.map((r) => r.id)).toEqual(['dir0'])
    expect(filterRuns([...RUNS, dir], { ...NO_RUN_FILTERS, q: 'ck-1' }).map((r) => r.id)).toEqual([
      'dir0',
    ])
  })
})

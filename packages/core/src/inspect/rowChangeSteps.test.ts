import { describe, expect, it } from 'vitest'
import type { TraceMessage } from '../contracts/trace.ts'
import type { TablesView } from '../contracts/views.ts'
import { rowChangeSteps, stateRequests } from './rowChangeSteps.ts'

const request = (
  step: number,
  rollout: string,
  attempt: number,
  before: number,
  made: number,
): TraceMessage => ({
  step,
  time_ms: step,
  phase: 'run',
  from: 'agent',
  to: 'resources_workplace',
  type: 'env.request',
  payload: { rollout_id: rollout, attempt_index: attempt, revision_before: before, revision: made },
  outcome: 'ok',
})

const view = (
  rows: readonly [number, string, 'same' | 'added' | 'changed'][],
  removed: readonly number[] = [],
): TablesView => ({
  step: 0,
  session: 'r1.a1',
  baseline: 'prepare',
  summary: { added: 0, removed: 0, changed: 0 },
  tables: [
    {
      name: 'emails',
      columns: ['body'],
      rows: rows.map(([label, body, status]) => ({
        label,
        cells: [body],
        status,
        changed: status === 'changed' ? [0] : [],
      })),
      removed: removed.map((label) => ({ label, cells: ['gone'] })),
    },
  ],
})

describe('which request changed a table row', () => {
  const events = [
    request(3, 'r1', 0, 0, 1), // before the checkpoint: the restored attempt continues from it
    request(5, 'r2', 0, 0, 1), // another rollout
    request(7, 'r1', 0, 1, 2), // the retired attempt's revision 2, discarded by the restore
    request(9, 'r1', 0, 1, 1), // a read: the revision does not move
    request(12, 'r1', 1, 1, 2), // revision 2 made again after restore
    request(15, 'r1', 1, 2, 3),
  ]
  it('[tables-link] the requests that made a session’s state: per revision the latest maker, this attempt or the one it continues', () => {
    expect(stateRequests(events, 'r1.a1', 3, 20)).toEqual([
      { step: 3, session: 'r1.a0', revision: 1 },
      { step: 12, session: 'r1.a1', revision: 2 },
      { step: 15, session: 'r1.a1', revision: 3 },
    ])
    // restored at revision 1, before its own requests: the retired attempt's revision 2 is not its
    // state
    expect(stateRequests(events, 'r1.a1', 1, 11)).toEqual([
      { step: 3, session: 'r1.a0', revision: 1 },
    ])
    expect(stateRequests(events, 'r1.a0', 2, 8)).toEqual([
      { step: 3, session: 'r1.a0', revision: 1 },
      { step: 7, session: 'r1.a0', revision: 2 },
    ])
    expect(stateRequests(events, 'not-a-key', 2, 8)).toEqual([])
    expect(stateRequests(events, 'r1.a0', null, 8)).toEqual([])
  })

  it('[tables-link] a changed, added or removed row links to the last request that changed it; an untouched one to none', () => {
    const current = view(
      [
        [0, 'a', 'same'],
        [1, 'b2', 'changed'],
        [2, 'new', 'added'],
        [3, 'c', 'changed'],
      ],
      [4],
    )
    const requests = [
      {
        step: 12,
        before: view([
          [0, 'a', 'same'],
          [1, 'b', 'same'],
          [4, 'gone', 'same'],
        ]),
        after: view([
          [0, 'a', 'same'],
          [1, 'b1', 'changed'],
        ]),
      },
      {
        step: 15,
        before: view([
          [0, 'a', 'same'],
          [1, 'b1', 'changed'],
        ]),
        after: view([
          [0, 'a', 'same'],
          [1, 'b2', 'changed'],
          [2, 'new', 'added'],
        ]),
      },
    ]
    expect(rowChangeSteps(current, requests)).toEqual({ emails: { '1': 15, '2': 15, '4': 12 } })
    expect(rowChangeSteps(view([[0, 'a', 'same']]), requests)).toEqual({})
  })
})

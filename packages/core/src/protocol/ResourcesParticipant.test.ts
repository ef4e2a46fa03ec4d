import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { createBlackjackServer } from '../environments/blackjack/blackjackServer.ts'
import { createCounterServer } from '../environments/counter/counterServer.ts'
import type { EnvironmentServer } from '../environments/EnvironmentServer.ts'
import { commitAgentNamespace } from '../directory/commitAgentNamespace.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import type { AgentBoundaryRecord } from '../records/AgentBoundaryRecord.ts'
import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import { ResourcesParticipant } from './ResourcesParticipant.ts'

const id = (r: string, a = 0): ExecutionIdentity => ({ rollout_id: r, attempt_index: a })
const counter = () =>
  new ResourcesParticipant(
    createCounterServer() as unknown as EnvironmentServer<unknown>,
    nodeDigest,
  )
const post = (
  path: string,
  body: unknown,
  identity?: ExecutionIdentity,
  extra: { requestId?: string; expectedRevision?: number } = {},
) => ({ path, method: 'POST', body, ...(identity === undefined ? {} : { identity }), ...extra })
function seeded(res: ResourcesParticipant<unknown>, who: ExecutionIdentity, initial = 5): void {
  const r = res.handleRequest(post('/seed_session', { initial_count: initial }, who))
  if (r.status !== 200) throw new Error('seed failed')
}
const record = (who: ExecutionIdentity, rev: number): AgentBoundaryRecord => ({
  rollout_id: who.rollout_id,
  attempt_index: who.attempt_index,
  boundary_index: 1,
  turn_index: 1,
  boundary_kind: 'turn_complete',
  output_items: [],
  usage: null,
  last_committed_model_call_id: null,
  resource_state_revisions: { counter: rev },
  agent_state: {},
  created_at: 0,
})
function committed(): { dir: MemoryCheckpointDirectory; records: AgentBoundaryRecord[] } {
  const res = counter()
  seeded(res, id('r0'), 5)
  res.handleRequest(post('/increment_counter', { count: 2 }, id('r0'), { requestId: 'q1' }))
  seeded(res, id('r1'), 9)
  res.prepare('ck', 100, 10)
  const dir = new MemoryCheckpointDirectory({ location: 'mem://ck' })
  res.commit('ck', dir)
  return { dir, records: [record(id('r0'), 1), record(id('r1'), 0)] }
}
/**
 * Restore after the agent committed `records` into the same D (the resources restore reconciles
 * with them).
 */
function restoreWith(
  res: ResourcesParticipant<unknown>,
  dir: MemoryCheckpointDirectory,
  records: readonly AgentBoundaryRecord[] | null,
) {
  if (records !== null) {
    const agent = commitAgentNamespace(dir, nodeDigest, {
      checkpoint_id: 'ck',
      instance_name: 'agent',
      records,
    })
    if (!agent.ok) throw new Error(agent.error.message)
  }
  return res.restore('ck', dir)
}

describe('ResourcesParticipant (docs/protocol.md §3.4, §4.4, §7.1)', () => {
  it('[resources.bind-after-start] [resources] binds a session to (rollout_id, attempt_index) only after a successful start, at revision 0', () => {
    const res = counter()
    const bad = res.handleRequest(post('/seed_session', {}, id('r0')))
    expect(bad.status).toBe(422)
    expect(res.revisionOf(id('r0'))).toBeNull()
    seeded(res, id('r0'))
    expect(res.revisionOf(id('r0'))).toBe(0)
  })

  it('[resources.unbound] [resources] a mutation before bind is resources_session_unbound', () => {
    const r = counter().handleRequest(post('/increment_counter', { count: 1 }, id('r0')))
    expect(r.code).toBe('resources_session_unbound')
    expect(r.status).toBe(409)
  })

  it('[resources.revision-on-success] [resources] revisions rise by one only on success', () => {
    const res = counter()
    seeded(res, id('r0'))
    expect(res.handleRequest(post('/increment_counter', { count: 1 }, id('r0'))).revision).toBe(1)
    const invalid = res.handleRequest(post('/increment_counter', {}, id('r0')))
    expect(invalid.status).toBe(422)
    expect(invalid.revision).toBe(1)
    expect(res.handleRequest(post('/increment_counter', { count: 1 }, id('r0'))).revision).toBe(2)
  })

  it('[resources.receipt-replay-bytes] [resources] a repeated request id replays the stored response without re-executing', () => {
    const res = counter()
    seeded(res, id('r0'), 0)
    const first = res.handleRequest(
      post('/increment_counter', { count: 3 }, id('r0'), { requestId: 'q1' }),
    )
    const again = res.handleRequest(
      post('/increment_counter', { count: 3 }, id('r0'), { requestId: 'q1' }),
    )
    expect(again.replayed).toBe(true)
    expect(again.revision).toBe(first.revision)
    expect(res.handleRequest(post('/get_counter_value', {}, id('r0'))).body).toEqual({ count: 3 })
  })

  it('[resources.receipt-replay-bytes] the replay carries the bytes first sent (key order and escapes kept); query and cookies enter the input digest', () => {
    const res = new ResourcesParticipant(
      createBlackjackServer({
        seedForUnseededReset: () => 0n,
      }) as unknown as EnvironmentServer<unknown>,
      nodeDigest,
    )
    res.handleRequest(
      post(
        '/reset',
        { responses_create_params: { input: [{ role: 'user', content: 'Deal me in.' }] }, seed: 0 },
        id('r0'),
      ),
    )
    const hit = {
      ...post(
        '/step',
        {
          responses_create_params: { input: [{ role: 'user', content: 'Deal me in.' }] },
          response: {
            output: [
              {
                type: 'message',
                role: 'assistant',
                content: [{ type: 'output_text', text: '<action>hit</action>' }],
              },
            ],
          },
        },
        id('r0'),
        { requestId: 'h1' },
      ),
      cookies: [
        ['b', '2'],
        ['a', '1'],
      ] as [string, string][],
    }
    const first = res.handleRequest(hit)
    expect(first.bytes).toBeDefined()
    const text = new TextDecoder().decode(first.bytes)
    expect(text).toBe(JSON.stringify(first.body))
    expect(text.startsWith('{"observation":')).toBe(true)
    const replay = res.handleRequest({
      ...hit,
      cookies: [
        ['a', '1'],
        ['b', '2'],
      ],
    })
    expect(replay.replayed).toBe(true)
    expect(new TextDecoder().decode(replay.bytes)).toBe(text)
    expect(replay.body).toEqual(first.body)
    expect(res.handleRequest({ ...hit, query: 'x=1' }).code).toBe('resource_request_receipt_error')
    expect(res.handleRequest({ ...hit, cookies: [['a', '1']] }).code).toBe(
      'resource_request_receipt_error',
    )
  })

  it('[resources.receipt-mismatch] [resources] the same request id with a different input is resource_request_receipt_error', () => {
    const res = counter()
    seeded(res, id('r0'))
    res.handleRequest(post('/increment_counter', { count: 3 }, id('r0'), { requestId: 'q1' }))
    expect(
      res.handleRequest(post('/increment_counter', { count: 4 }, id('r0'), { requestId: 'q1' }))
        .code,
    ).toBe('resource_request_receipt_error')
    expect(
      res.handleRequest(
        post('/increment_counter', { count: 3 }, id('r0'), {
          requestId: 'q1',
          expectedRevision: 0,
        }),
      ).code,
    ).toBe('resource_request_receipt_error')
  })

  it('[resources.revision-cas] [resources] an expected revision that does not match is resource_revision_mismatch (compare-and-set)', () => {
    const res = counter()
    seeded(res, id('r0'))
    const r = res.handleRequest(
      post('/increment_counter', { count: 1 }, id('r0'), { expectedRevision: 3 }),
    )
    expect(r.code).toBe('resource_revision_mismatch')
    expect(res.revisionOf(id('r0'))).toBe(0)
  })

  it('[resources.uncertain] [resources] an uncertain session refuses requests (resource_mutation_uncertain) and blocks prepare until retired', () => {
    const res = counter()
    seeded(res, id('r0'))
    res.markUncertain(id('r0'))
    expect(res.handleRequest(post('/increment_counter', { count: 1 }, id('r0'))).code).toBe(
      'resource_mutation_uncertain',
    )
    const p = res.prepare('ck', 100, 0)
    expect(!p.ok && p.error.code).toBe('resource_mutation_uncertain')
    expect(res.accepting).toBe(true)
  })

  it('[resources.uncertain] [resources] a handler that raises marks the session uncertain', () => {
    const env = createCounterServer() as unknown as EnvironmentServer<unknown>
    const raising: EnvironmentServer<unknown> = {
      ...env,
      handle: (path, body, s) =>
        path === '/boom'
          ? (() => {
              throw new Error('boom')
            })()
          : env.handle(path, body, s),
    }
    const res = new ResourcesParticipant(raising, nodeDigest)
    seeded(res, id('r0'))
    expect(res.handleRequest(post('/boom', {}, id('r0'))).code).toBe('resource_mutation_uncertain')
    expect(res.handleRequest(post('/increment_counter', { count: 1 }, id('r0'))).code).toBe(
      'resource_mutation_uncertain',
    )
  })

  it('[resources.untracked-poisons-prepare] [resources] stateful traffic without identity is served while accepting but poisons prepare', () => {
    const res = counter()
    expect(res.handleRequest(post('/seed_session', { initial_count: 1 })).status).toBe(200)
    const p = res.prepare('ck', 100, 0)
    expect(!p.ok && p.error.code).toBe('resources_checkpoint_error')
  })

  it('[resources.prepare-exports] [resources] prepare closes mutation admission and exports every bound session in sorted order', () => {
    const res = counter()
    seeded(res, id('r1'))
    seeded(res, id('r0'))
    const p = res.prepare('ck', 100, 42)
    expect(p.ok && p.value.inventory.map((i) => i.rollout_id)).toEqual(['r0', 'r1'])
    expect(res.fence.phase).toBe('prepared')
    expect(res.handleRequest(post('/increment_counter', { count: 1 }, id('r0'))).code).toBe(
      'checkpoint_parked',
    )
    expect(res.preparedSnapshots()[0]?.created_at).toBe(42)
  })

  it('[resources.retire] [resources] retire tombstones first, drops the session and its prepared snapshot', () => {
    const res = counter()
    seeded(res, id('r0'))
    seeded(res, id('r1'))
    res.prepare('ck', 100, 0)
    const r = res.retire('ck', id('r0'))
    expect(r.ok && r.value.dropped_snapshot).toBe(true)
    expect(res.preparedSnapshots().map((s) => s.rollout_id)).toEqual(['r1'])
    res.resume('ck')
    expect(res.handleRequest(post('/increment_counter', { count: 1 }, id('r0'))).code).toBe(
      'stale_attempt',
    )
  })

  it('[resources.terminal-releases] [resources] terminal /verify pops the binding; a later mutation is unbound but the receipt still replays', () => {
    const res = counter()
    seeded(res, id('r0'), 1)
    const v = res.handleRequest(
      post('/verify', { responses_create_params: {}, response: {}, expected_count: 1 }, id('r0'), {
        requestId: 'v',
      }),
    )
    expect(v.closed).toBe(true)
    expect(res.revisionOf(id('r0'))).toBeNull()
    expect(
      res.handleRequest(
        post(
          '/verify',
          { responses_create_params: {}, response: {}, expected_count: 1 },
          id('r0'),
          { requestId: 'v' },
        ),
      ).replayed,
    ).toBe(true)
    expect(res.handleRequest(post('/increment_counter', { count: 1 }, id('r0'))).code).toBe(
      'resources_session_unbound',
    )
  })

  it('[resources.commit-manifest-last] [resources] commit writes one snapshot per session then the manifest', () => {
    const { dir } = committed()
    expect(dir.list().map((e) => e.path)).toEqual([
      'resources/counter/manifest.json',
      'resources/counter/r0.a0.json',
      'resources/counter/r1.a0.json',
    ])
  })

  it('[resources.restore-replacement-set] [resources] restore activates the complete set under N+1 as checkpoint:<rollout>:a<N+1>, fences N, keeps revisions and receipts', () => {
    const { dir, records } = committed()
    const fresh = counter()
    const r = restoreWith(fresh, dir, records)
    expect(r.ok && r.value.activated).toEqual(['r0.a1', 'r1.a1'])
    expect(fresh.sessions().map((s) => s.session_id)).toEqual([
      'checkpoint:r0:a1',
      'checkpoint:r1:a1',
    ])
    expect(fresh.revisionOf(id('r0', 1))).toBe(1)
    expect(fresh.handleRequest(post('/increment_counter', { count: 1 }, id('r0', 1))).code).toBe(
      'checkpoint_parked',
    )
    fresh.resume('ck')
    expect(fresh.handleRequest(post('/increment_counter', { count: 1 }, id('r0'))).code).toBe(
      'stale_attempt',
    )
    expect(fresh.handleRequest(post('/get_counter_value', {}, id('r0', 1))).body).toEqual({
      count: 7,
    })
    expect(
      fresh.handleRequest(
        post('/increment_counter', { count: 2 }, id('r0', 1), { requestId: 'q1' }),
      ).replayed,
    ).toBe(true)
  })

  it('[restore.fresh-process] [resources] restore into a process that served stateful traffic is unsafe_resources_restore', () => {
    const { dir, records } = committed()
    const used = counter()
    seeded(used, id('x'))
    const r = restoreWith(used, dir, records)
    expect(!r.ok && r.error.code).toBe('unsafe_resources_restore')
  })

  it('[resources.revision-reconcile] [resources] agent boundaries that disagree on a revision or the session set are resource_revision_mismatch; nothing activates', () => {
    const { dir, records } = committed()
    const fresh = counter()
    const wrongRev = restoreWith(fresh, dir, [
      record(id('r0'), 2),
      records[1] as AgentBoundaryRecord,
    ])
    expect(!wrongRev.ok && wrongRev.error.code).toBe('resource_revision_mismatch')
    const missing = restoreWith(fresh, committed().dir, [records[0] as AgentBoundaryRecord])
    expect(!missing.ok && missing.error.code).toBe('resource_revision_mismatch')
    expect(fresh.sessions()).toEqual([])
  })

  it('[restore.corrupt-refused] [resources] a corrupt snapshot is refused naming the file and activates no session', () => {
    const { dir, records } = committed()
    const bytes = (dir.readFile('resources/counter/r1.a0.json') as Uint8Array).slice()
    bytes[10] = (bytes[10] as number) ^ 1
    dir.writeFile('resources/counter/r1.a0.json', bytes)
    const fresh = counter()
    const r = restoreWith(fresh, dir, records)
    expect(!r.ok && r.error.code).toBe('resources_checkpoint_error')
    expect(!r.ok && r.error.message).toContain('resources/counter/r1.a0.json')
    expect(fresh.sessions()).toEqual([])
  })

  it('[resources] blackjack: a restored session deals the same next card as the uninterrupted one', () => {
    const mk = () =>
      new ResourcesParticipant(
        createBlackjackServer({
          seedForUnseededReset: () => 0n,
        }) as unknown as EnvironmentServer<unknown>,
        nodeDigest,
      )
    const live = mk()
    const reset = { responses_create_params: { input: [] }, seed: '0' }
    const hit = {
      responses_create_params: { input: [] },
      response: {
        output: [
          { type: 'message', content: [{ type: 'output_text', text: '<action>hit</action>' }] },
        ],
      },
    }
    live.handleRequest(post('/reset', reset, id('r0')))
    live.prepare('ck', 100, 0)
    const dir = new MemoryCheckpointDirectory({ location: 'mem://ck' })
    live.commit('ck', dir)
    const fresh = mk()
    restoreWith(fresh, dir, null)
    fresh.resume('ck')
    live.resume('ck')
    const a = live.handleRequest(post('/step', hit, id('r0')))
    const b = fresh.handleRequest(post('/step', hit, id('r0', 1)))
    expect(b.body).toEqual(a.body)
  })

  it('[resources.receipt-capacity] [resources] a session holding 1 024 receipts refuses a new request id with resource_receipt_capacity_exhausted', () => {
    const res = counter()
    seeded(res, id('r0'))
    for (let i = 0; i < 1024; i++)
      res.handleRequest(post('/increment_counter', { count: 1 }, id('r0'), { requestId: `q${i}` }))
    expect(
      res.handleRequest(
        post('/increment_counter', { count: 1 }, id('r0'), { requestId: 'one-more' }),
      ).code,
    ).toBe('resource_receipt_capacity_exhausted')
    expect(
      res.handleRequest(post('/increment_counter', { count: 1 }, id('r0'), { requestId: 'q5' }))
        .replayed,
    ).toBe(true)
  })

  it('[resources.restore-expected] [resources] a restore-expected process starts paused and refuses resume until it restored', () => {
    const { dir, records } = committed()
    const fresh = new ResourcesParticipant(
      createCounterServer() as unknown as EnvironmentServer<unknown>,
      nodeDigest,
      { restoreExpected: true },
    )
    expect(fresh.accepting).toBe(false)
    const early = fresh.resume('ck')
    expect(!early.ok && early.error.code).toBe('invalid_phase')
    expect(restoreWith(fresh, dir, records).ok).toBe(true)
    expect(fresh.resume('ck').ok).toBe(true)
    expect(fresh.accepting).toBe(true)
  })

  it('[control.capabilities] [resources] status reports admission, sessions and the prepared inventory; capabilities report export_restore', () => {
    const res = counter()
    seeded(res, id('r0'))
    expect(!res.status('ck').ok).toBe(true)
    res.prepare('ck', 100, 0)
    const s = res.status('ck')
    expect(s.ok && s.value).toMatchObject({
      state: 'paused',
      sessions: 1,
      prepared_inventory: [{ rollout_id: 'r0', attempt_index: 0, revision: 0 }],
    })
    expect(res.capabilities()).toMatchObject({
      checkpoint_mode: 'export_restore',
      features: ['resources-checkpoint'],
      phase: 'prepared',
      active_checkpoint_id: 'ck',
      deadline_ts: 0.1,
    })
  })

  it('[resources.prepare-lock-deadline] [resources] prepare takes each session lock within the deadline: a holder done by then hands over, one running past it is resources_checkpoint_error', () => {
    const res = counter()
    seeded(res, id('r0'))
    seeded(res, id('r1'))
    res.holdLock(id('r0'), 90)
    expect(res.status('ck').ok).toBe(false)
    const late = counter()
    seeded(late, id('r0'))
    late.holdLock(id('r0'), 150)
    const refused = late.prepare('ck', 100, 10)
    expect(!refused.ok && refused.error.code).toBe('resources_checkpoint_error')
    expect(!refused.ok && refused.error.message).toContain('r0.a0')
    // Nothing exported, admission reopened, the fence back at idle: the controller aborts or
    // retries.
    expect(late.accepting).toBe(true)
    expect(late.fence.phase).toBe('idle')
    expect(late.preparedSnapshots()).toEqual([])
    const done = res.prepare('ck', 100, 10)
    expect(done.ok && done.value.sessions).toBe(2)
    const s = res.status('ck')
    expect(s.ok && s.value).toMatchObject({ lock_entries: 2, locked_sessions: 0 })
  })

  it('[resources.retire] [resources] retire tombstones first, then needs the session lock within the deadline; a timeout leaves the session and its snapshot', () => {
    const res = counter()
    seeded(res, id('r0'))
    seeded(res, id('r1'))
    res.prepare('ck', 100, 10)
    res.holdLock(id('r0'), 500)
    const timedOut = res.retire('ck', id('r0'))
    expect(!timedOut.ok && timedOut.error.code).toBe('resources_checkpoint_error')
    expect(res.tombstones()).toEqual(['r0.a0'])
    expect(res.preparedSnapshots().map((p) => p.rollout_id)).toEqual(['r0', 'r1'])
    const s = res.status('ck')
    expect(s.ok && s.value).toMatchObject({
      locked_sessions: 1,
      per_session: [
        { rollout_id: 'r0', locked: true },
        { rollout_id: 'r1', locked: false },
      ],
    })
    expect(res.retire('ck', id('r0'), 600).ok).toBe(true)
    expect(res.preparedSnapshots().map((p) => p.rollout_id)).toEqual(['r1'])
    expect(res.revisionOf(id('r0'))).toBeNull()
  })

  it('[resources.receipt-evicted] 1 024 closed sessions keep their receipts; then 4 096 evicted keys are remembered; then the history saturates: resource_receipt_evicted', () => {
    const res = counter()
    const close = (k: number): void => {
      const who = id(`r${k}`)
      seeded(res, who, 0)
      res.handleRequest(post('/increment_counter', { count: 1 }, who, { requestId: `q${k}` }))
      res.handleRequest(
        post('/verify', { responses_create_params: {}, response: {}, expected_count: 1 }, who, {
          requestId: `v${k}`,
        }),
      )
    }
    for (let k = 0; k < 1024; k++) close(k)
    // The oldest closed session still replays its receipt.
    expect(
      res.handleRequest(post('/increment_counter', { count: 1 }, id('r0'), { requestId: 'q0' }))
        .replayed,
    ).toBe(true)
    close(1024)
    // r0 fell out of the 1 024-session history: its key is remembered, a retry is refused.
    const evicted = res.handleRequest(
      post('/increment_counter', { count: 1 }, id('r0'), { requestId: 'q0' }),
    )
    expect(evicted.code).toBe('resource_receipt_evicted')
    expect(
      res.handleRequest(post('/increment_counter', { count: 1 }, id('r1'), { requestId: 'q1' }))
        .replayed,
    ).toBe(true)
    for (let k = 1025; k < 1024 + 4096; k++) close(k)
    res.prepare('ck', 100, 0)
    let st = res.status('ck')
    expect(st.ok && st.value).toMatchObject({
      retired_receipt_sessions: 1024,
      evicted_receipt_tombstones: 4096,
      receipt_history_saturated: false,
    })
    res.resume('ck')
    // One more eviction than can be remembered: the history saturates.
    close(1024 + 4096)
    res.prepare('ck2', 100, 0)
    st = res.status('ck2')
    expect(st.ok && st.value).toMatchObject({
      retired_receipt_sessions: 1024,
      evicted_receipt_tombstones: 0,
      receipt_history_saturated: true,
    })
    res.resume('ck2')
    // Saturated: no identity's history can be proven, every identified request is refused.
    expect(res.handleRequest(post('/seed_session', { initial_count: 0 }, id('fresh'))).code).toBe(
      'resource_receipt_evicted',
    )
    // Identity-free traffic and fenced identities answer as before.
    expect(res.handleRequest(post('/seed_session', { initial_count: 0 })).code).toBe(null)
  })

  it('[resources.adapter-retire-hook] retire calls the adapter retire hook under the session lock before dropping the session', () => {
    const env = createCounterServer() as unknown as EnvironmentServer<unknown>
    const retired: unknown[] = []
    const hooked: EnvironmentServer<unknown> = {
      ...env,
      codec: {
        ...env.codec,
        retireState: (session) => (retired.push(session), { ok: true, value: undefined }),
      },
    }
    const res = new ResourcesParticipant(hooked, nodeDigest)
    seeded(res, id('r0'), 7)
    res.holdLock(id('r0'), 50)
    res.prepare('ck', 100, 0)
    expect(res.retire('ck', id('r0')).ok).toBe(true)
    expect(retired).toEqual([{ counter: 7 }])
    const refusing: EnvironmentServer<unknown> = {
      ...env,
      codec: {
        ...env.codec,
        retireState: () => ({
          ok: false,
          error: { code: 'resources_checkpoint_error', message: 'no' },
        }),
      },
    }
    const other = new ResourcesParticipant(refusing, nodeDigest)
    seeded(other, id('r0'))
    other.prepare('ck', 100, 0)
    expect(!other.retire('ck', id('r0')).ok).toBe(true)
  })

  it('[resources.terminal-races-prepare] a terminal request holding the session lock at prepare retires the session, which silently leaves the cut', () => {
    const res = counter()
    seeded(res, id('r0'), 1)
    seeded(res, id('r1'), 2)
    // r0's /verify was admitted and its handler holds the lock when prepare arrives.
    expect(
      res.holdLock(
        id('r0'),
        40,
        post('/verify', { responses_create_params: {}, response: {}, expected_count: 1 }, id('r0')),
      ),
    ).toBe(true)
    const p = res.prepare('ck', 100, 10)
    expect(p.ok && p.value.inventory.map((x) => x.rollout_id)).toEqual(['r1'])
    expect(res.revisionOf(id('r0'))).toBe(null)
    // A non-terminal holder's mutation is part of the cut.
    const other = counter()
    seeded(other, id('r0'), 1)
    other.holdLock(id('r0'), 40, post('/increment_counter', { count: 4 }, id('r0')))
    const q = other.prepare('ck', 100, 10)
    expect(q.ok && q.value.inventory).toEqual([{ rollout_id: 'r0', attempt_index: 0, revision: 1 }])
  })
})

import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { AgentParticipant } from './AgentParticipant.ts'
import type { CompletionReceipt } from './AgentParticipant.ts'
import type { AgentBoundaryRecord } from '../records/AgentBoundaryRecord.ts'
import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'

const id = (r: string, a = 0): ExecutionIdentity => ({ rollout_id: r, attempt_index: a })
const code = (r: { ok: boolean; error?: { code: string } }) => (r.ok ? 'ok' : r.error?.code)
const boundary = (
  who: ExecutionIdentity,
  index: number,
  callId: string | null,
  rev = index,
): AgentBoundaryRecord => ({
  rollout_id: who.rollout_id,
  attempt_index: who.attempt_index,
  boundary_index: index,
  turn_index: index,
  boundary_kind: 'turn_complete',
  output_items: [],
  usage: null,
  last_committed_model_call_id: callId,
  resource_state_revisions: { counter: rev },
  agent_state: { turn: index },
  created_at: 0,
})
const agent = () => new AgentParticipant(nodeDigest)
function started(a: AgentParticipant, who: ExecutionIdentity, withBoundary = true): number {
  const b = a.begin(who)
  if (!b.ok) throw new Error(b.error.code)
  const g = b.value.execution.generation
  if (withBoundary) a.commitBoundary(who, g, boundary(who, 0, null))
  return g
}

/** A checkpoint `ck` holding r0 attempt 0 parked on its first boundary (model call `c-1`). */
function committedBoundaryOfR0(): MemoryCheckpointDirectory {
  const a = agent()
  const g0 = started(a, id('r0'))
  a.commitBoundary(id('r0'), g0, boundary(id('r0'), 1, 'c-1'))
  a.prepare('ck', 100)
  const dir = new MemoryCheckpointDirectory({ location: 'mem://ck' })
  a.commit('ck', dir)
  return dir
}

describe('AgentParticipant (docs/protocol.md §3.3, §4.3, §6.3)', () => {
  it('[agent] begin creates a Running execution with generation 1', () => {
    const a = agent()
    const b = a.begin(id('r0'))
    expect(b.ok && b.value.execution.state).toBe('running')
    expect(b.ok && b.value.execution.generation).toBe(1)
  })

  it('[agent.begin-rules] [agent] a duplicate /run for a live attempt is duplicate_execution; for a completed one the result replays', () => {
    const a = agent()
    const g = started(a, id('r0'))
    expect(code(a.begin(id('r0')))).toBe('duplicate_execution')
    a.finish(id('r0'), g, 'completed', { reward: 1 })
    const again = a.begin(id('r0'))
    expect(again.ok && again.value.replayed).toBe(true)
    expect(again.ok && again.value.execution.result).toEqual({ reward: 1 })
  })

  it('[agent.boundary-index] [agent] boundary indices strictly increase; an identical re-commit is a no-op, a different lower one an error', () => {
    const a = agent()
    const g = started(a, id('r0'))
    expect(a.commitBoundary(id('r0'), g, boundary(id('r0'), 1, 'c1')).ok).toBe(true)
    expect(a.commitBoundary(id('r0'), g, boundary(id('r0'), 1, 'c1')).ok).toBe(true)
    expect(code(a.commitBoundary(id('r0'), g, boundary(id('r0'), 1, 'other')))).toBe(
      'agent_checkpoint_error',
    )
  })

  it('[agent.ownership] [agent] a stale generation cannot write a boundary (ownership check)', () => {
    const a = agent()
    started(a, id('r0'))
    expect(code(a.commitBoundary(id('r0'), 7, boundary(id('r0'), 1, 'c')))).toBe('stale_attempt')
  })

  it('[agent.prepare-parks] [agent] prepare parks executions on a boundary and asks the others to park at their next boundary', () => {
    const a = agent()
    started(a, id('r0'))
    const g1 = started(a, id('r1'))
    a.leaveBoundary(id('r1'), g1)
    const r = a.prepare('ck', 100)
    expect(r.ok && r.value.parked_with_boundary).toBe(1)
    expect(r.ok && r.value.running).toBe(1)
    expect(r.ok && r.value.ready_to_commit).toBe(false)
    expect(a.execution(id('r1'))?.state).toBe('park_requested')
    a.commitBoundary(id('r1'), g1, boundary(id('r1'), 1, 'c'))
    expect(a.execution(id('r1'))?.state).toBe('parked')
    const s = a.status('ck')
    expect(s.ok && s.value.ready_to_commit).toBe(true)
    expect(a.fence.phase).toBe('prepared')
  })

  it('[agent.begin-rules] [agent.prepare-parks] [agent] admission closes at prepare: begin is agent_admission_closed', () => {
    const a = agent()
    a.prepare('ck', 100)
    expect(code(a.begin(id('r9')))).toBe('agent_admission_closed')
  })

  it('[agent.boundaryless-park-blocks] [agent] a boundary-less park blocks ready_to_commit', () => {
    const a = agent()
    const g = started(a, id('r0'), false)
    a.park(id('r0'), g)
    const r = a.prepare('ck', 100)
    expect(r.ok && r.value.parked_without_boundary).toBe(1)
    expect(r.ok && r.value.ready_to_commit).toBe(false)
  })

  it('[agent.prepare-incomplete] [agent] at the deadline without readiness prepare is agent_prepare_incomplete and park requests revert', () => {
    const a = agent()
    const g = started(a, id('r0'))
    a.leaveBoundary(id('r0'), g)
    a.prepare('ck', 100)
    const r = a.prepareDeadline('ck')
    expect(code(r)).toBe('agent_prepare_incomplete')
    expect(!r.ok && r.error.message).toContain('r0.a0')
    expect(a.execution(id('r0'))?.state).toBe('running')
  })

  it('[agent.failed-prepare-returns-idle] after agent_prepare_incomplete the fence is idle: the same id prepares afresh and another id is no conflict', () => {
    const a = agent()
    const g = started(a, id('r0'))
    a.leaveBoundary(id('r0'), g)
    expect(a.prepare('ck', 100).ok).toBe(true)
    expect(code(a.prepareDeadline('ck'))).toBe('agent_prepare_incomplete')
    expect(a.fence.phase).toBe('idle')
    expect(a.fence.activeCheckpointId).toBe(null)
    expect(a.execution(id('r0'))?.state).toBe('running')
    // A retry of the same id runs prepare again (no replayed success): r0 is asked to park again.
    const again = a.prepare('ck', 200)
    expect(again.ok && again.value.ready_to_commit).toBe(false)
    expect(a.execution(id('r0'))?.state).toBe('park_requested')
    expect(code(a.prepareDeadline('ck'))).toBe('agent_prepare_incomplete')
    // Another id is accepted, not checkpoint_conflict.
    expect(a.prepare('ck-other', 300).ok).toBe(true)
  })

  it('[agent.cancelled-parked-stays-exportable] a parked-with-boundary execution whose /run is cancelled is still exported, then retired at resume', () => {
    const a = agent()
    const g = started(a, id('r0'))
    a.commitBoundary(id('r0'), g, boundary(id('r0'), 1, 'c-1'))
    expect(a.prepare('ck', 100).ok).toBe(true)
    expect(a.execution(id('r0'))?.state).toBe('parked')
    expect(a.finish(id('r0'), g, 'cancelled', null).ok).toBe(true)
    expect(a.execution(id('r0'))?.state).toBe('parked')
    expect(a.tombstones()).toEqual([])
    const st = a.status('ck')
    expect(st.ok && st.value.ready_to_commit).toBe(true)
    expect(st.ok && st.value.parked_with_boundary).toBe(1)
    const dir = new MemoryCheckpointDirectory({ location: 'mem://ck' })
    const c = a.commit('ck', dir)
    expect(c.ok && c.value.records).toBe(1)
    expect(a.resume('ck').ok).toBe(true)
    expect(a.execution(id('r0'))).toBeUndefined()
    expect(a.tombstones()).toEqual(['r0.a0'])
    // A cancelled execution that is not parked with a boundary is retired at once.
    const b = agent()
    const g2 = started(b, id('r1'), false)
    b.finish(id('r1'), g2, 'cancelled', null)
    expect(b.tombstones()).toEqual(['r1.a0'])
  })

  it('[agent.completed-blocks-ready] [agent] completed results awaiting acknowledgement block ready_to_commit; retire of a completed execution is refused', () => {
    const a = agent()
    const g = started(a, id('r0'))
    a.finish(id('r0'), g, 'completed', { reward: 1 })
    const r = a.prepare('ck', 100)
    expect(r.ok && r.value.completed_unacknowledged).toBe(1)
    expect(r.ok && r.value.ready_to_commit).toBe(false)
    const ret = a.retire('ck', id('r0'))
    expect(ret.ok && ret.value).toEqual({
      retired: false,
      tombstoned: false,
      completed_unacknowledged: true,
    })
  })

  it('[agent.retire] [agent] retire tombstones the attempt: a later begin is stale_attempt', () => {
    const a = agent()
    started(a, id('r0'))
    a.prepare('ck', 100)
    expect(a.retire('ck', id('r0')).ok).toBe(true)
    expect(a.tombstones()).toEqual(['r0.a0'])
    a.resume('ck')
    expect(code(a.begin(id('r0')))).toBe('stale_attempt')
  })

  it('[receipt.idempotent-replay] [receipts] the exact receipt acknowledges; replay is idempotent; an acknowledged key is stale_attempt', () => {
    const a = agent()
    const g = started(a, id('r0'))
    const fin = a.finish(id('r0'), g, 'completed', { reward: 1 })
    const receipt = (fin.ok ? fin.value : null) as CompletionReceipt
    expect(receipt.execution_generation).toBe(1)
    expect(a.acknowledge([receipt]).ok).toBe(true)
    const again = a.acknowledge([receipt])
    expect(again.ok && again.value.idempotent).toBe(1)
    expect(code(a.begin(id('r0')))).toBe('stale_attempt')
  })

  it('[receipt.batch-all-or-nothing] [receipt.idempotent-replay] [receipts] a mismatching receipt is refused and a batch with one bad receipt releases nothing', () => {
    const a = agent()
    const g0 = started(a, id('r0'))
    const g1 = started(a, id('r1'))
    const r0 = a.finish(id('r0'), g0, 'completed', { reward: 1 })
    const r1 = a.finish(id('r1'), g1, 'completed', { reward: 0 })
    const good = (r0.ok ? r0.value : null) as CompletionReceipt
    const other = (r1.ok ? r1.value : null) as CompletionReceipt
    const bad = { ...other, result_digest: '0'.repeat(64) }
    expect(code(a.acknowledge([good, bad]))).toBe('completed_execution_acknowledgement_error')
    expect(a.execution(id('r0'))?.state).toBe('completed')
    expect(code(a.acknowledge([{ ...good, execution_generation: 2 }]))).toBe(
      'completed_execution_acknowledgement_error',
    )
    expect(code(a.acknowledge([{ ...good, rollout_id: 'nope' }]))).toBe(
      'completed_execution_acknowledgement_error',
    )
    expect(a.acknowledge([good, other]).ok).toBe(true)
    expect(code(a.acknowledge([{ ...good, result_identity: 'x' }]))).toBe(
      'completed_execution_acknowledgement_error',
    )
  })

  it('[agent.commit-records] [agent] commit writes one record per parked-with-boundary execution, manifest last, and returns continuation roots', () => {
    const a = agent()
    const g0 = started(a, id('r0'))
    a.commitBoundary(id('r0'), g0, boundary(id('r0'), 1, 'c-1'))
    started(a, id('r1'))
    a.prepare('ck', 100)
    const dir = new MemoryCheckpointDirectory({ location: 'mem://ck' })
    const order: string[] = []
    const traced = {
      location: dir.location,
      writeFile: (p: string, d: Uint8Array) => (order.push(p), dir.writeFile(p, d)),
      sync: () => dir.sync(),
      readFile: (p: string) => dir.readFile(p),
      list: () => dir.list(),
    }
    const r = a.commit('ck', traced)
    expect(r.ok && r.value.records).toBe(2)
    expect(r.ok && r.value.continuation_roots.map((x) => x.capture_key)).toEqual(['r0'])
    expect(order).toEqual(['agent/r0.a0.json', 'agent/r1.a0.json', 'agent/manifest.json'])
    expect(a.fence.phase).toBe('committed_paused')
  })

  it('[agent.restore-continuations] [agent.restore-race] [agent] restore installs continuations under N+1, fences N, and a second claimant is duplicate_execution', () => {
    const dir = committedBoundaryOfR0()
    const fresh = agent()
    const r = fresh.restore('ck', dir)
    expect(r.ok && r.value.continuations).toEqual(['r0.a1'])
    expect(fresh.fence.phase).toBe('restored_paused')
    expect(code(fresh.begin(id('r0', 1)))).toBe('agent_admission_closed')
    fresh.resume('ck')
    expect(code(fresh.begin(id('r0')))).toBe('stale_attempt')
    const claim = fresh.begin(id('r0', 1))
    expect(claim.ok && claim.value.execution.continuation?.boundary_index).toBe(1)
    expect(code(fresh.begin(id('r0', 1)))).toBe('duplicate_execution')
  })

  it('[restore.fresh-process] [restore.corrupt-refused] [agent] restore into a process with live executions is refused; a torn directory installs nothing', () => {
    const live = agent()
    started(live, id('x'))
    const dir = new MemoryCheckpointDirectory({ location: 'mem://ck' })
    expect(code(live.restore('ck', dir))).toBe('agent_checkpoint_error')
    const fresh = agent()
    expect(code(fresh.restore('ck', dir))).toBe('agent_checkpoint_error')
    expect(fresh.continuations()).toEqual([])
  })

  it('[agent.discard-restored-continuation] [agent] discarding a restored continuation (restored_paused only) lets the replacement restart from its input', () => {
    const dir = committedBoundaryOfR0()
    const fresh = agent()
    fresh.restore('ck', dir)
    const d = fresh.discardContinuation('ck', id('r0', 1))
    expect(d.ok && d.value.discarded).toBe(true)
    fresh.resume('ck')
    expect(code(fresh.discardContinuation('ck', id('r0', 1)))).toBe('stale_checkpoint')
    const b = fresh.begin(id('r0', 1))
    expect(b.ok && b.value.execution.continuation).toBeNull()
  })

  it('[agent.status-every-phase] status answers in every phase, idle included; stale and conflicting ids are still refused', () => {
    const a = agent()
    const idle = a.status('ck')
    expect(idle.ok && idle.value.state).toBe('accepting')
    expect(a.fence.phase).toBe('idle')
    a.prepare('ck', 100)
    expect(a.status('ck').ok).toBe(true)
    expect(code(a.status('other'))).toBe('checkpoint_conflict')
    const dir = new MemoryCheckpointDirectory({ location: 'mem://ck' })
    a.commit('ck', dir)
    expect(a.fence.phase).toBe('committed_paused')
    expect(a.status('ck').ok).toBe(true)
    a.resume('ck')
    expect(code(a.status('ck'))).toBe('stale_checkpoint')
    const fresh = agent()
    fresh.restore('ck', dir)
    expect(fresh.fence.phase).toBe('restored_paused')
    expect(fresh.status('ck').ok).toBe(true)
  })

  it('[agent.single-acknowledge] [agent.completion-receipt] [receipt.shape] the single /acknowledge and completion-receipt: the receipt fetched by identity acknowledges once, then idempotently; a wrong one is refused', () => {
    const a = agent()
    const g = started(a, id('r0'))
    expect(code(a.completionReceipt(id('r0')))).toBe('completed_execution_acknowledgement_error')
    a.finish(id('r0'), g, 'completed', { id: 'res-1', reward: 1 })
    const receipt = a.completionReceipt(id('r0'))
    expect(receipt.ok && receipt.value).toMatchObject({
      rollout_id: 'r0',
      attempt_index: 0,
      execution_generation: 1,
      result_identity: 'res-1',
    })
    if (!receipt.ok) return
    expect(code(a.acknowledgeOne({ ...receipt.value, execution_generation: 2 }))).toBe(
      'completed_execution_acknowledgement_error',
    )
    expect(a.execution(id('r0'))?.state).toBe('completed')
    const first = a.acknowledgeOne(receipt.value)
    expect(first.ok && first.value).toEqual({ acknowledged: true, idempotent: false })
    const again = a.acknowledgeOne(receipt.value)
    expect(again.ok && again.value).toEqual({ acknowledged: true, idempotent: true })
    expect(a.completionReceipt(id('r0')).ok).toBe(true)
    expect(code(a.begin(id('r0')))).toBe('stale_attempt')
  })

  it('[agent.resume-releases] resume reopens admission and releases parked executions to run on', () => {
    const a = agent()
    const g = started(a, id('r0'))
    a.prepare('ck', 100)
    expect(a.execution(id('r0'))?.state).toBe('parked')
    expect(code(a.begin(id('r1')))).toBe('agent_admission_closed')
    const r = a.resume('ck')
    expect(r.ok && r.value).toEqual({ state: 'accepting', released: 1 })
    expect(a.execution(id('r0'))?.state).toBe('running')
    expect(a.leaveBoundary(id('r0'), g).ok).toBe(true)
    expect(a.begin(id('r1')).ok).toBe(true)
  })
})

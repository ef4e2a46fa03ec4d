import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { PolicyModel } from './PolicyModel.ts'
import type { ContinuationRoot } from '../records/ContinuationRoot.ts'
import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import { GenerationWorker } from './GenerationWorker.ts'
import { TokenStore } from './TokenStore.ts'

const id = (r: string, a = 0): ExecutionIdentity => ({ rollout_id: r, attempt_index: a })
const code = (r: { ok: boolean; error?: { code: string } }) => (r.ok ? 'ok' : r.error?.code)
const gen = new GenerationWorker(new TokenStore())

/** Admits and completes one call; returns its model_call_id. */
function call(m: PolicyModel, who: ExecutionIdentity, text = 'hello world'): string {
  const a = m.admit(who)
  if (!a.ok) throw new Error(a.error.code)
  const done = m.complete(
    a.value.ticket,
    gen.stage(a.value.model_call_id, a.value.prev_len, text),
    0,
  )
  if (!done.ok) throw new Error(done.error.code)
  return a.value.model_call_id
}
const root = (who: ExecutionIdentity, callId: string): ContinuationRoot => ({
  schema_version: 1,
  rollout_id: who.rollout_id,
  attempt_index: who.attempt_index,
  capture_key: who.attempt_index === 0 ? who.rollout_id : `${who.rollout_id}-a${who.attempt_index}`,
  last_committed_model_call_id: callId,
  resource_state_revisions: {},
})
const sinkOf = () => new MemoryCheckpointDirectory({ location: 'mem://ck' })

/** A checkpoint `ck` whose ledger holds one committed call of r0 attempt 0. */
function committedLedgerOfR0(): { dir: MemoryCheckpointDirectory; call: string } {
  const m = new PolicyModel(nodeDigest)
  const c = call(m, id('r0'))
  m.pause('ck', 100)
  const dir = sinkOf()
  m.commit('ck', dir, [root(id('r0'), c)])
  return { dir, call: c }
}

describe('PolicyModel (docs/protocol.md §3.2, §4.2, §5.1, §6.2)', () => {
  it('[model.pause-closes-admission] [model] prepare with nothing in flight goes accepting → paused and the fence to prepared', () => {
    const m = new PolicyModel(nodeDigest)
    const r = m.pause('ck', 100)
    expect(r.ok && r.value.state).toBe('paused')
    expect(m.fence.phase).toBe('prepared')
  })

  it('[model.pause-closes-admission] [model] prepare with calls in flight drains: accepting → draining → paused when the last finishes', () => {
    const m = new PolicyModel(nodeDigest)
    const a = m.admit(id('r0'))
    expect(m.pause('ck', 100).ok).toBe(true)
    expect(m.admission).toBe('draining')
    expect(m.fence.phase).toBe('preparing')
    if (a.ok) m.complete(a.value.ticket, gen.stage(a.value.model_call_id, 0, 'x'), 1)
    expect(m.admission).toBe('paused')
    expect(m.status('ck', 2).ok).toBe(true)
    expect(m.fence.phase).toBe('prepared')
  })

  it('[model.admission-gate] [model] a new generation while draining or paused is refused checkpoint_parked before any state changes', () => {
    const m = new PolicyModel(nodeDigest)
    m.admit(id('r0'))
    m.pause('ck', 100)
    expect(code(m.admit(id('r1')))).toBe('checkpoint_parked')
    expect(m.inflightTotal).toBe(1)
  })

  it('[model.resume-reopens] [model] resume reopens admission (paused → accepting) and retires the id', () => {
    const m = new PolicyModel(nodeDigest)
    m.pause('ck', 100)
    expect(m.resume('ck').ok).toBe(true)
    expect(m.admission).toBe('accepting')
    // the recorded pause result replays, but nothing new can run under the retired id
    expect(code(m.abortInflight('ck', id('r0')))).toBe('stale_checkpoint')
    expect(m.admission).toBe('accepting')
  })

  it('[model.not-a-policy-instance] [model] an auxiliary instance refuses checkpoint operations with not_a_policy_instance', () => {
    const m = new PolicyModel(nodeDigest, { instanceRole: 'auxiliary' })
    expect(code(m.pause('ck', 100))).toBe('not_a_policy_instance')
  })

  it('[model.abort-inflight] [model] abort_inflight tombstones the attempt; its calls are stale_attempt; commit waits (ledger_not_quiescent) until the task exits', () => {
    const m = new PolicyModel(nodeDigest)
    const a = m.admit(id('r0'))
    m.pause('ck', 100)
    const ab = m.abortInflight('ck', id('r0'))
    expect(ab.ok && ab.value.aborted_inflight).toBe(1)
    expect(code(m.admit(id('r0')))).toBe('stale_attempt')
    expect(m.inflightTotal).toBe(1)
    expect(code(m.commit('ck', sinkOf(), []))).toBe('invalid_phase')
    if (a.ok) expect(m.taskExit(a.value.ticket)).toBe(true)
    expect(m.admission).toBe('paused')
    m.status('ck', 5)
    expect(m.commit('ck', sinkOf(), []).ok).toBe(true)
  })

  it('[model.commit-quiescent] [model] commit while not quiescent is ledger_not_quiescent', () => {
    const m = new PolicyModel(nodeDigest, { workers: 2 })
    m.pause('ck', 100)
    m.workerAck(0)
    // worker 1 has not acknowledged: not paused; force the fence to prepared to reach the commit
    // check
    m.fence.markPrepared('ck')
    expect(code(m.commit('ck', sinkOf(), []))).toBe('ledger_not_quiescent')
  })

  it('[model.commit-roots-only] [model] commit copies lineage only for capture keys named by continuation roots', () => {
    const m = new PolicyModel(nodeDigest)
    const c0 = call(m, id('r0'))
    call(m, id('r1'))
    m.pause('ck', 100)
    const sink = sinkOf()
    const r = m.commit('ck', sink, [root(id('r0'), c0)])
    expect(r.ok && r.value.rollouts).toBe(1)
    expect(r.ok && r.value.excluded_inactive).toBe(1)
    expect(sink.list().map((e) => e.path)).toEqual([
      'model-ledger/policy/manifest.json',
      'model-ledger/policy/r0.lineage.jsonl',
    ])
  })

  it('[model.commit-root-mismatch] [model] a root naming a tombstoned attempt, a missing lineage or no matching row is ledger_mismatch', () => {
    const m = new PolicyModel(nodeDigest)
    const c0 = call(m, id('r0'))
    m.admit(id('r1'))
    m.pause('ck', 100)
    m.abortInflight('ck', id('r1'))
    for (const t of m.ticketsOf(id('r1'))) m.taskExit(t)
    m.status('ck', 1)
    expect(code(m.commit('ck', sinkOf(), [root(id('r1'), 'x')]))).toBe('ledger_mismatch')
    expect(code(m.commit('ck', sinkOf(), [root(id('r9'), 'x')]))).toBe('ledger_mismatch')
    expect(code(m.commit('ck', sinkOf(), [root(id('r0'), 'policy-call-999999')]))).toBe(
      'ledger_mismatch',
    )
    expect(m.fence.phase).toBe('prepared')
    expect(m.commit('ck', sinkOf(), [root(id('r0'), c0)]).ok).toBe(true)
  })

  it('[restore.fresh-process] [fence.restore-failed-paused] [model] restore needs a fresh namespace: a process that served traffic is ledger_mismatch and stays restore_failed_paused', () => {
    const { dir: sink } = committedLedgerOfR0()
    const used = new PolicyModel(nodeDigest)
    call(used, id('x'))
    expect(code(used.restore('ck', sink))).toBe('ledger_mismatch')
    expect(used.fence.phase).toBe('restore_failed_paused')
    expect(used.admission).toBe('restore_failed_paused')
  })

  it('[model.restore-boots-paused] [straggler.tombstones-restored] [relay.first-call-once] [model] restore boots paused, fences the source attempt and tombstones, and the relay links the first N+1 call exactly once', () => {
    const m = new PolicyModel(nodeDigest)
    const first = call(m, id('r0'))
    const last = call(m, id('r0'))
    m.admit(id('r1'))
    m.pause('ck', 100)
    m.abortInflight('ck', id('r1'))
    for (const t of m.ticketsOf(id('r1'))) m.taskExit(t)
    m.status('ck', 1)
    const sink = sinkOf()
    expect(m.commit('ck', sink, [root(id('r0'), last)]).ok).toBe(true)
    const fresh = new PolicyModel(nodeDigest)
    const r = fresh.restore('ck', sink)
    expect(r.ok).toBe(true)
    expect(fresh.admission).toBe('paused')
    expect(fresh.fence.phase).toBe('restored_paused')
    expect(fresh.tombstones()).toEqual(['r0.a0', 'r1.a0'])
    // paused until resume: even the replacement attempt parks; the fenced source is stale first
    expect(code(fresh.admit(id('r0', 1)))).toBe('checkpoint_parked')
    expect(code(fresh.admit(id('r0')))).toBe('stale_attempt')
    fresh.resume('ck')
    expect(code(fresh.admit(id('r0')))).toBe('stale_attempt')
    expect(code(fresh.admit(id('r1')))).toBe('stale_attempt')
    const a1 = fresh.admit(id('r0', 1))
    expect(a1.ok && a1.value.relay).toBe(true)
    expect(a1.ok && a1.value.parent_call_id).toBe(last)
    expect(a1.ok && a1.value.parent_call_id).not.toBe(first)
    if (a1.ok)
      fresh.complete(
        a1.value.ticket,
        gen.stage(a1.value.model_call_id, a1.value.prev_len, 'next'),
        2,
      )
    const a2 = fresh.admit(id('r0', 1))
    expect(a2.ok && a2.value.relay).toBe(false)
    expect(a2.ok && a1.ok && a2.value.parent_call_id).toBe(a1.ok ? a1.value.model_call_id : null)
  })

  it('[model.refused-restore-keeps-admission] a restore refused by the fence (stale id, conflicting id) leaves admission and phase as they were', () => {
    const { dir: sink } = committedLedgerOfR0()
    const m = new PolicyModel(nodeDigest)
    expect(m.pause('ck1', 100).ok).toBe(true)
    expect(m.resume('ck1').ok).toBe(true)
    expect(code(m.restore('ck1', sink))).toBe('stale_checkpoint')
    expect(m.admission).toBe('accepting')
    expect(m.fence.phase).toBe('idle')
    expect(m.admit(id('r5')).ok).toBe(true)
    const p = new PolicyModel(nodeDigest)
    const a = p.admit(id('r0'))
    expect(p.pause('ck2', 100).ok).toBe(true)
    expect(p.admission).toBe('draining')
    expect(code(p.restore('ck', sink))).toBe('checkpoint_conflict')
    expect(p.admission).toBe('draining')
    expect(p.fence.phase).toBe('preparing')
    if (a.ok) p.complete(a.value.ticket, gen.stage(a.value.model_call_id, 0, 'x'), 1)
    expect(p.admission).toBe('paused')
  })

  it('[relay.first-call-once] [model] a relay is consumed even when the first N+1 call is aborted: a retry does not relink', () => {
    const { dir: sink, call: c } = committedLedgerOfR0()
    const fresh = new PolicyModel(nodeDigest)
    fresh.restore('ck', sink)
    fresh.resume('ck')
    const a = fresh.admit(id('r0', 1))
    expect(a.ok && a.value.relay).toBe(true)
    const b = fresh.admit(id('r0', 1))
    expect(b.ok && b.value.relay).toBe(false)
    expect(fresh.relays()).toEqual([{ key: 'r0.a1', parent: c, consumed: true }])
  })

  it('[restore.corrupt-refused] [model] corrupt lineage is refused naming the file and nothing is installed', () => {
    const m = new PolicyModel(nodeDigest)
    const c = call(m, id('r0'))
    m.pause('ck', 100)
    const dir = new MemoryCheckpointDirectory({ location: 'mem://ck' })
    m.commit('ck', dir, [root(id('r0'), c)])
    const bytes = dir.readFile('model-ledger/policy/r0.lineage.jsonl') as Uint8Array
    const copy = bytes.slice()
    copy[5] = (copy[5] as number) ^ 1
    dir.writeFile('model-ledger/policy/r0.lineage.jsonl', copy)
    const fresh = new PolicyModel(nodeDigest)
    const r = fresh.restore('ck', dir)
    expect(code(r)).toBe('ledger_mismatch')
    expect(!r.ok && r.error.message).toContain('model-ledger/policy/r0.lineage.jsonl')
    expect(fresh.ledgerRows()).toEqual([])
    expect(fresh.tombstones()).toEqual([])
  })
})

describe('multi-worker admission coordinator (docs/protocol.md §4.6)', () => {
  it('[coordinator.paused-needs-all-acks] [coordinator] paused only when every frozen worker acknowledged and summed in-flight is zero', () => {
    const m = new PolicyModel(nodeDigest, { workers: 2 })
    const r = m.pause('ck', 100)
    expect(r.ok && r.value.state).toBe('draining')
    m.workerAck(0)
    expect(m.admission).toBe('draining')
    m.workerAck(1)
    expect(m.admission).toBe('paused')
  })

  it('[coordinator.missing-workers] [coordinator] a worker that never acknowledges is missing_workers at the deadline, never an implicit zero', () => {
    const m = new PolicyModel(nodeDigest, { workers: 2 })
    m.pause('ck', 100)
    m.workerAck(0)
    expect(m.status('ck', 50).ok).toBe(true)
    expect(code(m.status('ck', 100))).toBe('missing_workers')
  })

  it('[coordinator.missing-workers] [coordinator] close with a disconnected member is refused missing_workers and admission reopens', () => {
    const m = new PolicyModel(nodeDigest, { workers: 2 })
    m.workerDisconnect(1)
    expect(code(m.pause('ck', 100))).toBe('missing_workers')
    expect(m.fence.phase).toBe('idle')
  })

  it('[coordinator.registration-rejected] [coordinator] registration while not accepting is worker_registration_rejected; after resume it joins', () => {
    const m = new PolicyModel(nodeDigest, { workers: 2 })
    m.pause('ck', 100)
    m.workerDisconnect(1)
    expect(code(m.workerRegister(1))).toBe('worker_registration_rejected')
    m.resume('ck')
    expect(m.workerRegister(1).ok).toBe(true)
  })

  it('[model.status-long-poll] status long-polls up to min(timeout, remaining) for paused; paused or an expired deadline answers at once', () => {
    const m = new PolicyModel(nodeDigest)
    const a = m.admit(id('r0'))
    m.pause('ck', 100)
    const early = m.statusLongPoll('ck', 50, 20_000)
    expect(early.ok && [early.value.report.state, early.value.wait_ms]).toEqual(['draining', 50])
    const short = m.statusLongPoll('ck', 50, 10)
    expect(short.ok && short.value.wait_ms).toBe(10)
    const late = m.statusLongPoll('ck', 150, 20_000)
    expect(late.ok && late.value.wait_ms).toBe(0)
    if (a.ok) m.complete(a.value.ticket, gen.stage(a.value.model_call_id, 0, 'x'), 60)
    const paused = m.statusLongPoll('ck', 60, 20_000)
    expect(paused.ok && [paused.value.report.state, paused.value.wait_ms]).toEqual(['paused', 0])
    expect(m.fence.phase).toBe('prepared')
    expect(code(m.statusLongPoll('other', 60, 10))).toBe('checkpoint_conflict')
  })

  it('[model.ledger-not-checkpointable] a model server without a ledger lifecycle refuses commit with ledger_not_checkpointable and stays prepared', () => {
    const m = new PolicyModel(nodeDigest, { ledger: false })
    expect(m.pause('ck', 100).ok).toBe(true)
    expect(code(m.commit('ck', sinkOf(), []))).toBe('ledger_not_checkpointable')
    expect(m.fence.phase).toBe('prepared')
  })

  it('[model.custody-before-response] the lineage row is recorded when the response completes; a cancelled request records nothing', () => {
    const m = new PolicyModel(nodeDigest)
    const a = m.admit(id('r0'))
    const b = m.admit(id('r1'))
    if (!a.ok || !b.ok) throw new Error('admit')
    expect(m.ledgerRows()).toEqual([])
    const row = m.complete(a.value.ticket, gen.stage(a.value.model_call_id, 0, 'hi'), 5)
    expect(row.ok && row.value.model_call_id).toBe(a.value.model_call_id)
    expect(m.ledgerRows().map((r) => r.model_call_id)).toEqual([a.value.model_call_id])
    expect(m.isInflight(a.value.ticket)).toBe(false)
    m.pause('ck', 100)
    m.abortInflight('ck', id('r1'))
    expect(code(m.complete(b.value.ticket, gen.stage(b.value.model_call_id, 0, 'late'), 6))).toBe(
      'stale_attempt',
    )
    expect(m.ledgerRows().map((r) => r.model_call_id)).toEqual([a.value.model_call_id])
  })
})

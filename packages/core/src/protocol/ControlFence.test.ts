import { describe, expect, it } from 'vitest'
import { cutoverError } from '../contracts/errors.ts'
import { err, ok } from '../result.ts'
import { ControlFence, FENCE_OPS, forRequest } from './ControlFence.ts'

const codeOf = (r: { ok: boolean; error?: { code: string } }) => (r.ok ? 'ok' : r.error?.code)

describe('ControlFence (docs/protocol.md §3.1, §4.1)', () => {
  it('[fence.mark-prepared] [fence] prepare moves idle → preparing and mark_prepared → prepared', () => {
    const f = new ControlFence()
    expect(f.run('ck', FENCE_OPS.prepare, () => ok(1), 100).ok).toBe(true)
    expect(f.phase).toBe('preparing')
    expect(f.activeCheckpointId).toBe('ck')
    expect(f.markPrepared('ck')).toBe(true)
    expect(f.phase).toBe('prepared')
  })

  it('[fence.mark-prepared] [fence] resources prepare goes idle → prepared in one call', () => {
    const f = new ControlFence()
    f.run('ck', FENCE_OPS.resourcesPrepare, () => ok(1))
    expect(f.phase).toBe('prepared')
  })

  it('[fence.invalid-phase] [fence] resume of an id never prepared or restored here is invalid_phase and changes nothing; the same id once prepared resumes', () => {
    const f = new ControlFence()
    const never = f.run('ck-never', FENCE_OPS.resourcesResume, () => ok(1))
    expect(codeOf(never)).toBe('invalid_phase')
    expect(f.phase).toBe('idle')
    expect(f.activeCheckpointId).toBeNull()
    // Refusing it retired nothing: the id can still be prepared and then resumed.
    expect(f.run('ck-never', FENCE_OPS.resourcesPrepare, () => ok(1)).ok).toBe(true)
    expect(f.run('ck-never', FENCE_OPS.resourcesResume, () => ok(1)).ok).toBe(true)
    expect(f.phase).toBe('idle')
  })

  it('[fence.failure-rolls-back] [fence] commit moves prepared → committed_paused; a failed commit returns to prepared', () => {
    const f = new ControlFence()
    f.run('ck', FENCE_OPS.resourcesPrepare, () => ok(1))
    expect(
      codeOf(
        f.run('ck', FENCE_OPS.commit, () =>
          err(cutoverError('resources_checkpoint_error', 'crash')),
        ),
      ),
    ).toBe('resources_checkpoint_error')
    expect(f.phase).toBe('prepared')
    expect(f.run('ck', FENCE_OPS.commit, () => ok('m')).ok).toBe(true)
    expect(f.phase).toBe('committed_paused')
  })

  it('[fence.replay] [fence] replays the recorded result of a repeated operation without running it again', () => {
    const f = new ControlFence()
    let runs = 0
    f.run('ck', FENCE_OPS.resourcesPrepare, () => ok(1))
    const a = f.run('ck', FENCE_OPS.commit, () => ok(++runs))
    const b = f.run('ck', FENCE_OPS.commit, () => ok(++runs))
    expect(a).toEqual(b)
    expect(runs).toBe(1)
  })

  it('[fence.stale-before-replay] [fence] a finished id is stale_checkpoint for every operation, its recorded ones included', () => {
    const f = new ControlFence()
    f.run('ck', FENCE_OPS.prepare, () => ok('p'))
    f.run('ck', FENCE_OPS.agentResume, () => ok('r'))
    for (const op of [
      FENCE_OPS.prepare,
      FENCE_OPS.commit,
      FENCE_OPS.agentResume,
      FENCE_OPS.restore,
    ])
      expect(codeOf(f.run('ck', op, () => ok('again')))).toBe('stale_checkpoint')
    expect(codeOf(f.admits('ck', 'commit', 'D'))).toBe('stale_checkpoint')
  })

  it('[fence.stale-before-replay] [fence] while another id is prepared, a finished id is stale_checkpoint, never its cached bytes', () => {
    const f = new ControlFence()
    f.run('ck-a', FENCE_OPS.resourcesPrepare, () => ok('prepared a'))
    f.run('ck-a', forRequest(FENCE_OPS.commit, 'D/ck-a'), () => ok('committed a'))
    f.run('ck-a', FENCE_OPS.resourcesResume, () => ok('resumed a'))
    f.run('ck-c', FENCE_OPS.resourcesPrepare, () => ok('prepared c'))
    for (const op of [FENCE_OPS.resourcesPrepare, FENCE_OPS.commit, FENCE_OPS.resourcesResume])
      expect(codeOf(f.run('ck-a', op, () => ok('ran')))).toBe('stale_checkpoint')
    expect(f.snapshot().active_checkpoint_id).toBe('ck-c')
  })

  it('[fence.replay-same-request] [fence] a retry with a new deadline replays; the same operation with another checkpoint_dir is checkpoint_conflict and runs nothing', () => {
    const f = new ControlFence()
    f.run('ck', FENCE_OPS.resourcesPrepare, () => ok(0), 100)
    let runs = 0
    const first = f.run('ck', forRequest(FENCE_OPS.commit, 'D/ck'), () => ok(++runs), 100)
    expect(f.run('ck', forRequest(FENCE_OPS.commit, 'D/ck'), () => ok(++runs), 999)).toEqual(first)
    const other = f.run('ck', forRequest(FENCE_OPS.commit, 'D/elsewhere'), () => ok(++runs), 100)
    expect(codeOf(other)).toBe('checkpoint_conflict')
    expect(codeOf(f.admits('ck', 'commit', 'D/elsewhere'))).toBe('checkpoint_conflict')
    expect(f.admits('ck', 'commit', 'D/ck').ok).toBe(true)
    expect(runs).toBe(1)
    expect(f.phase).toBe('committed_paused')
  })

  it('[fence.replay-same-request] [fence] an in-flight operation coalesces only the same request', () => {
    const f = new ControlFence()
    f.run('ck', FENCE_OPS.resourcesPrepare, () => ok(0))
    const first = f.begin('ck', forRequest(FENCE_OPS.commit, 'D/ck'))
    expect(first.ok && first.value.kind).toBe('started')
    expect(codeOf(f.begin('ck', forRequest(FENCE_OPS.commit, 'D/other')))).toBe(
      'checkpoint_conflict',
    )
    const same = f.begin('ck', forRequest(FENCE_OPS.commit, 'D/ck'))
    expect(same.ok && same.value.kind).toBe('coalesced')
  })

  it('[fence.coalesce] [fence] an identical in-flight operation is coalesced onto the same pending ticket', () => {
    const f = new ControlFence()
    const first = f.begin('ck', FENCE_OPS.prepare, 100)
    const second = f.begin('ck', FENCE_OPS.prepare, 100)
    expect(first.ok && first.value.kind).toBe('started')
    expect(second.ok && second.value.kind).toBe('coalesced')
    if (
      first.ok &&
      second.ok &&
      first.value.kind === 'started' &&
      second.value.kind === 'coalesced'
    ) {
      expect(second.value.ticket).toBe(first.value.ticket)
      f.finish(first.value.ticket, ok('done'))
    }
    const third = f.begin('ck', FENCE_OPS.prepare)
    expect(third.ok && third.value.kind).toBe('replayed')
  })

  it('[fence.stale-checkpoint] [fence] a retired (resumed) checkpoint id is stale_checkpoint forever', () => {
    const f = new ControlFence()
    f.run('ck', FENCE_OPS.prepare, () => ok(1))
    f.run('ck', FENCE_OPS.modelResume, () => ok(1))
    expect(f.phase).toBe('idle')
    expect(codeOf(f.run('ck', FENCE_OPS.commit, () => ok(1)))).toBe('stale_checkpoint')
    expect(codeOf(f.requirePhase('ck', ['idle']))).toBe('stale_checkpoint')
  })

  it('[fence.checkpoint-conflict] [fence] another id while one is active is checkpoint_conflict', () => {
    const f = new ControlFence()
    f.run('a', FENCE_OPS.prepare, () => ok(1))
    expect(codeOf(f.run('b', FENCE_OPS.prepare, () => ok(1)))).toBe('checkpoint_conflict')
  })

  it('[fence.invalid-phase] [fence] an operation in the wrong phase is invalid_phase', () => {
    const f = new ControlFence()
    expect(codeOf(f.run('ck', FENCE_OPS.commit, () => ok(1)))).toBe('invalid_phase')
    expect(f.phase).toBe('idle')
    expect(f.activeCheckpointId).toBeNull()
  })

  it('[fence.failure-rolls-back] [fence] a failed prepare returns to idle and clears the active id', () => {
    const f = new ControlFence()
    f.run('ck', FENCE_OPS.prepare, () => err(cutoverError('missing_workers', 'w1')))
    expect(f.phase).toBe('idle')
    expect(f.activeCheckpointId).toBeNull()
    expect(f.run('other', FENCE_OPS.prepare, () => ok(1)).ok).toBe(true)
  })

  it('[fence.restore-failed-paused] [fence] a failed model restore moves to restore_failed_paused and a retry may restore again', () => {
    const f = new ControlFence()
    f.run('ck', FENCE_OPS.modelRestore, () => err(cutoverError('ledger_mismatch', 'bad')))
    expect(f.phase).toBe('restore_failed_paused')
    expect(f.run('ck', FENCE_OPS.modelRestore, () => ok(1)).ok).toBe(true)
    expect(f.phase).toBe('restored_paused')
  })

  it('[fence.resume-retires-id] [fence] resume is allowed from every paused phase and retires the id', () => {
    for (const setup of [
      (f: ControlFence) => f.run('ck', FENCE_OPS.prepare, () => ok(1)),
      (f: ControlFence) => f.run('ck', FENCE_OPS.restore, () => ok(1)),
      (f: ControlFence) => {
        f.run('ck', FENCE_OPS.resourcesPrepare, () => ok(1))
        f.run('ck', FENCE_OPS.commit, () => ok(1))
      },
    ]) {
      const f = new ControlFence()
      setup(f)
      expect(f.run('ck', FENCE_OPS.modelResume, () => ok(1)).ok).toBe(true)
      expect(f.phase).toBe('idle')
      expect(f.isRetired('ck')).toBe(true)
    }
  })

  it('[fence.zero-budget] [fence] deadlines are absolute and an expired one is a zero budget, never negative', () => {
    const f = new ControlFence()
    f.run('ck', FENCE_OPS.prepare, () => ok(1), 100)
    expect(f.remaining(40)).toBe(60)
    expect(f.remaining(100)).toBe(0)
    expect(f.remaining(500)).toBe(0)
  })

  it('[fence.failure-rolls-back] [fence] a prepare that fails after its call returned (failPrepare) drops its record and returns to idle', () => {
    const f = new ControlFence()
    expect(f.run('ck', FENCE_OPS.prepare, () => ok(1), 100).ok).toBe(true)
    expect(f.failPrepare('other')).toBe(false)
    expect(f.failPrepare('ck')).toBe(true)
    expect(f.snapshot()).toEqual({ phase: 'idle', active_checkpoint_id: null, deadline_ms: null })
    let ran = 0
    expect(f.run('ck', FENCE_OPS.prepare, () => ok(++ran), 100)).toEqual(ok(1))
    expect(ran).toBe(1)
  })

  it('[controller.commit-durable-before-success] [fence] a recorded commit can be voided (voidCommit) only in committed_paused: back to prepared, the commit runs again', () => {
    const f = new ControlFence()
    f.run('ck', FENCE_OPS.resourcesPrepare, () => ok(0), 100)
    let writes = 0
    expect(f.run('ck', FENCE_OPS.commit, () => ok(++writes)).ok).toBe(true)
    expect(f.hasRecorded('ck', 'commit')).toBe(true)
    expect(f.run('ck', FENCE_OPS.commit, () => ok(++writes))).toEqual(ok(1))
    expect(f.voidCommit('ck')).toBe(true)
    expect(f.phase).toBe('prepared')
    expect(f.run('ck', FENCE_OPS.commit, () => ok(++writes))).toEqual(ok(2))
    expect(f.phase).toBe('committed_paused')
    f.run('ck', FENCE_OPS.modelResume, () => ok(null))
    expect(f.voidCommit('ck')).toBe(false)
  })
})

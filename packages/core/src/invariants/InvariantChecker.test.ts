import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { loadNodeWorkplaceData } from '../adapters/nodeWorkplaceData.ts'
import type { TraceEvent, TraceEventType, TraceOutcome } from '../contracts/trace.ts'
import type { JsonValue } from '../json.ts'
import type { ControllerTestOptions } from '../controller/Controller.ts'
import { resolveRunConfig, runSimulation } from '../simulator/simulate.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { InvariantChecker } from './InvariantChecker.ts'

const workplace = loadNodeWorkplaceData()
const deps = {
  digest: nodeDigest,
  workplace,
  openDirectory: (id: string) => new MemoryCheckpointDirectory({ location: id }),
}
const broken = (test: ControllerTestOptions) =>
  runSimulation(resolveRunConfig({ scenario: 'happy-path', rollouts: 6 }), deps, { test })

let step = 0
/** A hand-made event: its payload holds only the fields the invariant under test reads. */
const ev = (
  type: TraceEventType,
  from: string,
  to: string,
  payload: { [key: string]: JsonValue },
  outcome: TraceOutcome = 'ok',
  phase: TraceEvent['phase'] = 'run',
): TraceEvent =>
  ({ step: ++step, time_ms: 0, phase, from, to, type, payload, outcome }) as TraceEvent

describe('invariants catch a broken participant at the right step', () => {
  it('[invariants] resume-order fails at the agent.resume that comes before the model and resources', () => {
    const r = broken({ resumeAgentsFirst: true })
    const failure = r.failures.find((f) => f.id === 'resume-order')
    expect(r.invariants['resume-order']).toBe('fail')
    const at = r.events[(failure?.step ?? 0) - 1]
    expect(at?.type).toBe('agent.resume')
    expect(at?.phase).toBe('resume')
    expect(r.invariantsAt((failure?.step ?? 1) - 1).invariants['resume-order']).toBe('pass')
    expect(r.invariantsAt(failure?.step ?? 0).invariants['resume-order']).toBe('fail')
  })

  it('[invariants] resume-order after an abort asks only for the dependencies a prepare was sent to', () => {
    step = 0
    const abortRound = (resumed: readonly string[]) => {
      const c = new InvariantChecker()
      c.observe(ev('agent.prepare', 'controller', 'agent', {}, 'ok', 'prepare'))
      c.observe(ev('model.pause', 'controller', 'policy_model', {}, 'ok', 'prepare'))
      c.observe(ev('resources.prepare', 'controller', 'resources_counter', {}, 'ok', 'prepare'))
      for (const to of resumed)
        c.observe(
          ev(
            to === 'policy_model' ? 'model.resume' : 'resources.resume',
            'controller',
            to,
            {},
            'ok',
            'abort',
          ),
        )
      c.observe(ev('agent.resume', 'controller', 'agent', {}, 'ok', 'abort'))
      return c
    }
    // The model and the counter were prepared and resumed first: blackjack and workplace, never
    // asked to prepare, need no resume.
    expect(abortRound(['policy_model', 'resources_counter']).failures).toEqual([])
    expect(abortRound(['policy_model']).failures).toEqual([
      {
        id: 'resume-order',
        step: expect.any(Number),
        message: 'agent resumed before resources_counter',
      },
    ])
  })

  it('[invariants] manifest-last fails at the aggregate written before the resources manifests', () => {
    const r = broken({ aggregateBeforeResources: true })
    const failure = r.failures.find((f) => f.id === 'manifest-last')
    const at = r.events[(failure?.step ?? 0) - 1]
    expect(at?.type).toBe('directory.write')
    expect(at?.payload['path']).toBe('nemo_gym_checkpoint_manifest.json')
  })

  it('[invariants] fenced-attempt-silent fails when a tombstoned attempt writes', () => {
    step = 0
    const c = new InvariantChecker()
    c.observe(
      ev(
        'model.abort_inflight',
        'controller',
        'policy_model',
        { rollout_id: 'r0', attempt_index: 0 },
        'ok',
        'retire',
      ),
    )
    c.observe(
      ev(
        'model.request',
        'agent',
        'policy_model',
        { rollout_id: 'r0', attempt_index: 0 },
        'stale_attempt',
      ),
    )
    expect(c.map()['fenced-attempt-silent']).toBe('pass')
    c.observe(
      ev('env.request', 'agent', 'resources_counter', {
        rollout_id: 'r0',
        attempt_index: 0,
        revision_before: 1,
        revision: 2,
        success: true,
      }),
    )
    expect(c.failures).toEqual([
      { id: 'fenced-attempt-silent', step: 3, message: expect.stringContaining('r0.a0') },
    ])
  })

  it('[invariants] revision-monotonic fails when a revision falls or moves on a failed request', () => {
    step = 0
    const c = new InvariantChecker()
    c.observe(
      ev('env.request', 'agent', 'resources_counter', {
        rollout_id: 'r0',
        attempt_index: 0,
        revision_before: 0,
        revision: 1,
        success: true,
      }),
    )
    c.observe(
      ev(
        'env.request',
        'agent',
        'resources_counter',
        { rollout_id: 'r0', attempt_index: 0, revision_before: 1, revision: 2, success: false },
        'ok',
      ),
    )
    expect(c.failures.map((f) => [f.id, f.step])).toEqual([['revision-monotonic', 2]])
  })

  it('[invariants] restore-all-or-nothing fails on a partial activation', () => {
    step = 0
    const c = new InvariantChecker()
    c.observe(
      ev(
        'resources.restore',
        'controller',
        'resources_counter',
        { expected: 3, activated: 0 },
        'resources_checkpoint_error',
        'restore',
      ),
    )
    expect(c.map()['restore-all-or-nothing']).toBe('pass')
    c.observe(
      ev(
        'resources.restore',
        'controller',
        'resources_counter',
        { expected: 3, activated: 2 },
        'ok',
        'restore',
      ),
    )
    expect(c.failures.map((f) => [f.id, f.step])).toEqual([['restore-all-or-nothing', 2]])
  })

  it('[invariants] relay-once fails when N+1 links to its restored parent twice', () => {
    step = 0
    const c = new InvariantChecker()
    c.observe(
      ev(
        'model.restore',
        'controller',
        'policy_model',
        { result: { relays: { 'r0.a1': 'call-1' } } },
        'ok',
        'restore',
      ),
    )
    c.observe(
      ev('model.request', 'agent', 'policy_model', {
        rollout_id: 'r0',
        attempt_index: 1,
        relay: true,
        parent_call_id: 'call-1',
      }),
    )
    c.observe(
      ev('model.request', 'agent', 'policy_model', {
        rollout_id: 'r0',
        attempt_index: 1,
        relay: true,
        parent_call_id: 'call-1',
      }),
    )
    expect(c.failures.map((f) => [f.id, f.step])).toEqual([['relay-once', 3]])
  })

  it('[invariants] relay-once fails when the first N+1 call does not link to N', () => {
    step = 0
    const c = new InvariantChecker()
    c.observe(
      ev(
        'model.restore',
        'controller',
        'policy_model',
        { result: { relays: { 'r0.a1': 'call-1' } } },
        'ok',
        'restore',
      ),
    )
    c.observe(
      ev('model.request', 'agent', 'policy_model', {
        rollout_id: 'r0',
        attempt_index: 1,
        relay: false,
        parent_call_id: null,
      }),
    )
    expect(c.failures.map((f) => f.id)).toEqual(['relay-once'])
  })

  it('[invariants] manifest-last fails for a participant file written after its namespace manifest', () => {
    step = 0
    const c = new InvariantChecker()
    c.observe(
      ev(
        'directory.write',
        'agent',
        'directory',
        { checkpoint_id: 'ck', path: 'agent/manifest.json' },
        'ok',
        'commit',
      ),
    )
    c.observe(
      ev(
        'directory.write',
        'agent',
        'directory',
        { checkpoint_id: 'ck', path: 'agent/r0.a0.json' },
        'ok',
        'commit',
      ),
    )
    expect(c.failures.map((f) => [f.id, f.step])).toEqual([['manifest-last', 2]])
  })

  it('[invariants] call-id-unique fails at the second call issued the same id, naming both executions', () => {
    step = 0
    const c = new InvariantChecker()
    c.observe(
      ev('model.request', 'agent', 'policy_model', {
        rollout_id: 'r0',
        attempt_index: 0,
        model_call_id: 'policy-call-000001',
        parent_call_id: null,
        relay: false,
      }),
    )
    c.observe(
      ev('model.request', 'agent', 'policy_model', {
        rollout_id: 'r1',
        attempt_index: 1,
        model_call_id: 'policy-call-g1-000001',
        parent_call_id: null,
        relay: false,
      }),
    )
    expect(c.map()['call-id-unique']).toBe('pass')
    c.observe(
      ev('model.request', 'agent', 'policy_model', {
        rollout_id: 'r1',
        attempt_index: 1,
        model_call_id: 'policy-call-000001',
        parent_call_id: null,
        relay: false,
      }),
    )
    expect(c.failures).toEqual([
      {
        id: 'call-id-unique',
        step: 3,
        message: 'model call id policy-call-000001 issued to r1.a1 was already issued to r0.a0',
      },
    ])
  })

  it('[controller.acks-before-prepare] acks-before-prepare fails at the acknowledgement of a receipt that agent.prepare found unreleased', () => {
    step = 0
    const c = new InvariantChecker()
    const receipt = (rollout: string) => ({
      rollout_id: rollout,
      attempt_index: 0,
      execution_generation: 1,
      result_identity: `id-${rollout}`,
      result_digest: `d-${rollout}`,
    })
    c.observe(
      ev('run.complete', 'agent', 'controller', {
        rollout_id: 'r0',
        attempt_index: 0,
        receipt: receipt('r0'),
      }),
    )
    c.observe(
      ev(
        'agent.acknowledge',
        'controller',
        'agent',
        { receipts: [receipt('r0')] },
        'ok',
        'prepare',
      ),
    )
    c.observe(
      ev('run.complete', 'agent', 'controller', {
        rollout_id: 'r1',
        attempt_index: 0,
        receipt: receipt('r1'),
      }),
    )
    c.observe(
      ev('agent.prepare', 'controller', 'agent', { checkpoint_id: 'ck-1' }, 'ok', 'prepare'),
    )
    // A result completed after the prepare may be acknowledged after it.
    c.observe(
      ev(
        'run.complete',
        'agent',
        'controller',
        { rollout_id: 'r2', attempt_index: 0, receipt: receipt('r2') },
        'ok',
        'prepare',
      ),
    )
    c.observe(
      ev(
        'agent.acknowledge',
        'controller',
        'agent',
        { receipts: [receipt('r2')] },
        'ok',
        'prepare',
      ),
    )
    // A receipt that is not the exact one is not r1's acknowledgement.
    c.observe(
      ev(
        'agent.acknowledge',
        'controller',
        'agent',
        { receipts: [{ ...receipt('r1'), result_digest: '0' }] },
        'completed_execution_acknowledgement_error',
        'prepare',
      ),
    )
    expect(c.map()['acks-before-prepare']).toBe('pass')
    c.observe(
      ev(
        'agent.acknowledge',
        'controller',
        'agent',
        { receipts: [receipt('r1')] },
        'ok',
        'prepare',
      ),
    )
    expect(c.failures).toEqual([
      {
        id: 'acks-before-prepare',
        step: 8,
        message: 'result r1.a0.g1:id-r1:d-r1 acknowledged after agent.prepare of ck-1',
      },
    ])
  })

  it('[controller.acks-before-prepare] a controller acknowledging after prepare fails acks-before-prepare at that acknowledgement, and only it', () => {
    const r = broken({ acksAfterPrepare: true })
    const failure = r.failures.find((f) => f.id === 'acks-before-prepare')
    const at = r.events[(failure?.step ?? 0) - 1]
    expect(at?.type).toBe('agent.acknowledge')
    const prepare = r.events.findIndex((e) => e.type === 'agent.prepare')
    expect(prepare).toBeGreaterThanOrEqual(0)
    expect(prepare).toBeLessThan((failure?.step ?? 0) - 1)
    expect(r.failures.map((f) => f.id)).toEqual(['acks-before-prepare'])
    expect(r.outcome).toBe('completed')
  })

  it('[invariants] call-id-unique: a restored policy model issues ids no earlier process issued', () => {
    const r = runSimulation(
      resolveRunConfig({ scenario: 'straggler-retirement', rollouts: 9 }),
      deps,
    )
    const ids = r.events
      .filter((e) => e.type === 'model.request' && typeof e.payload['model_call_id'] === 'string')
      .map((e) => String(e.payload['model_call_id']))
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.some((id) => id.startsWith('policy-call-g1-'))).toBe(true)
    expect(r.invariants['call-id-unique']).toBe('pass')
  })
})

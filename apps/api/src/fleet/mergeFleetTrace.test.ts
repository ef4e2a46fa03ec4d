import { describe, expect, it } from 'vitest'
import type { RunView, TraceEvent, TracePhase } from '@cutover/core/contracts'
import { INVARIANT_IDS } from '@cutover/core/contracts'
import type { WireRecord } from '../participants/processTrace.ts'
import { controllerRecords } from './controllerRecords.ts'
import { fleetTraceResult, traceInvariants } from './fleetTraceResult.ts'
import { mergeFleetTrace, withoutDeliveredAnswers } from './mergeFleetTrace.ts'

let seq = 0
const rec = (
  wall_ms: number,
  from: string,
  to: string,
  type: string,
  payload: WireRecord['payload'],
  pid: number,
  phase?: TracePhase,
): WireRecord & { phase?: TracePhase } => ({
  from,
  to,
  type,
  payload,
  outcome: 'ok',
  wall_ms,
  pid,
  seq: seq++,
  ...(phase === undefined ? {} : { phase }),
})
const id = { rollout_id: 'r0', attempt_index: 0 }

/**
 * A tiny cycle as three processes recorded it: dispatcher + controller (pid 1), agent (pid 2, then
 * 4 after replacement), model (pid 3).
 */
function sources() {
  const controller = [
    rec(
      1000,
      'controller',
      'agent',
      'run.dispatch',
      { ...id, environment: 'counter', continued: false, generation: null },
      1,
    ),
    rec(
      1100,
      'controller',
      'agent',
      'agent.prepare',
      { checkpoint_id: 'ck-1', deadline_ms: 0 },
      1,
      'prepare',
    ),
    rec(
      1300,
      'controller',
      'agent',
      'agent.commit',
      { checkpoint_id: 'ck-1', attempt: 0 },
      1,
      'commit',
    ),
    rec(1500, 'controller', 'agent', 'agent.restore', { checkpoint_id: 'ck-1' }, 1, 'restore'),
    rec(1600, 'controller', 'agent', 'agent.resume', { checkpoint_id: 'ck-1' }, 1, 'resume'),
    rec(
      1700,
      'controller',
      'agent',
      'run.dispatch',
      {
        rollout_id: 'r0',
        attempt_index: 1,
        environment: 'counter',
        continued: true,
        generation: null,
      },
      1,
    ),
  ]
  const agent = [
    rec(
      1010,
      'agent',
      'policy_model',
      'model.request',
      { ...id, model_call_id: 'c1', parent_call_id: null, relay: false },
      2,
    ),
    rec(
      1300,
      'agent',
      'directory',
      'directory.write',
      { checkpoint_id: 'ck-1', path: 'agent/manifest.json', bytes: 1, crashed: false },
      2,
    ),
    rec(
      1710,
      'agent',
      'controller',
      'run.complete',
      { rollout_id: 'r0', attempt_index: 1, reward: 1, receipt: null },
      4,
    ),
  ]
  const model = [
    rec(
      1010,
      'policy_model',
      'agent',
      'model.response',
      { ...id, model_call_id: 'c1', parent_call_id: null, relay: false, text: '' },
      3,
    ),
  ]
  return [
    { rank: 2, records: model },
    { rank: 0, records: controller },
    { rank: 1, records: agent },
  ]
}

const view = (events: number): RunView => ({
  id: '0000000000a',
  kind: 'fleet',
  scenario: 'happy-path',
  seed: '1',
  rollouts: 1,
  deadline_ms: 1500,
  faults: [],
  inert_faults: [],
  status: 'complete',
  created_at: '2026-01-01T00:00:00.000Z',
  events,
  outcome: 'completed',
  checkpoints: [],
  damaged: [],
  invariants: Object.fromEntries(INVARIANT_IDS.map((i) => [i, 'pass'])) as RunView['invariants'],
  failures: [],
  processes: [
    { participant: 'agent', name: 'agent', pid: 2, port: 1, role: 'original' },
    { participant: 'agent', name: 'agent', pid: 4, port: 2, role: 'replacement' },
  ],
})

describe('mergeFleetTrace', () => {
  it('[fleet-trace] merges every process by wall clock, ties by source rank; steps from 1, time from the first record, phases from the controller', () => {
    const trace = mergeFleetTrace(sources())
    expect(trace.map((e) => e.step)).toEqual(trace.map((_, i) => i + 1))
    expect(trace.map((e) => `${e.from}>${e.type}`)).toEqual([
      'controller>run.dispatch',
      'agent>model.request',
      'policy_model>model.response',
      'controller>agent.prepare',
      'controller>agent.commit',
      'agent>directory.write',
      'controller>agent.restore',
      'controller>agent.resume',
      'controller>run.dispatch',
      'agent>run.complete',
    ])
    expect(trace.map((e) => e.phase)).toEqual([
      'run',
      'run',
      'run',
      'prepare',
      'commit',
      'commit',
      'restore',
      'resume',
      'continue',
      'continue',
    ])
    expect(trace[0]?.time_ms).toBe(0)
    expect(trace[9]).toMatchObject({ time_ms: 710, wall_ms: 1710, pid: 4 })
    // The same records in another order give the same trace.
    expect(mergeFleetTrace([...sources()].reverse())).toEqual(mergeFleetTrace(sources()))
  })

  it('[fleet-trace] controller events take the time their call was sent', () => {
    const entries = [
      {
        phase: 'commit' as const,
        from: 'controller',
        to: 'agent',
        type: 'agent.commit',
        payload: { checkpoint_id: 'ck-1' },
        outcome: 'ok' as const,
        wall_ms: 500,
      },
    ]
    const calls = [
      {
        participant: 'agent',
        url: 'u',
        endpoint: 'agent-checkpoint/prepare',
        status: 200,
        code: 'ok',
        sent_at: 100,
        answered_at: 150,
      },
      {
        participant: 'agent',
        url: 'u',
        endpoint: 'agent-checkpoint/commit',
        status: 200,
        code: 'ok',
        sent_at: 300,
        answered_at: 490,
      },
    ]
    expect(controllerRecords(entries, calls, 7)[0]).toMatchObject({
      wall_ms: 300,
      pid: 7,
      phase: 'commit',
      type: 'agent.commit',
    })
  })
})

describe('fleetTraceResult', () => {
  it('[fleet-trace] a recorded run answers its views from its trace: cards with the PID holding the role, sessions, lineage, invariants', () => {
    const trace = mergeFleetTrace(sources()) as unknown as TraceEvent[]
    const result = fleetTraceResult(view(trace.length), trace)
    const agentAt = (step: number) => result.participantsAt(step).find((p) => p.id === 'agent')
    expect(agentAt(1)).toMatchObject({ pid: 2, inflight: 1, phase: 'idle' })
    expect(agentAt(5)).toMatchObject({
      pid: 2,
      inflight: 0,
      phase: 'committed_paused',
      checkpoint_id: 'ck-1',
    })
    expect(agentAt(8)).toMatchObject({ pid: 4, phase: 'idle', admission: 'accepting' })
    expect(result.sessionsAt(10).map((r) => `${r.key}:${r.state}`)).toEqual([
      'r0.a0:exported',
      'r0.a1:terminal',
    ])
    expect(result.lineage(10).rollouts[0]?.attempts.map((a) => a.status)).toEqual([
      'continued',
      'completed',
    ])
    expect(result.lineage(10).rollouts[0]?.attempts[0]?.calls.map((c) => c.model_call_id)).toEqual([
      'c1',
    ])
    // The tiny cycle resumes only the agent: the same resume-order failure the checker finds in a
    // simulated trace.
    expect(result.invariantsAt(trace.length).failures.map((f) => f.id)).toEqual(['resume-order'])
    expect(result.invariantsAt(7).failures).toEqual([])
    expect(result.sessionDetail('r0.a1', 10)?.session.state).toBe('terminal')
  })

  it('[resume-order] [fleet-trace] the invariants run over a recorded trace as over a simulated one', () => {
    const trace = mergeFleetTrace(sources()) as unknown as TraceEvent[]
    const resumedFirst = trace.map((e) =>
      e.type === 'agent.resume' ? { ...e, type: 'agent.status' } : e,
    ) as TraceEvent[]
    // model.resume missing before the agent resumed is a resume-order failure.
    expect(traceInvariants(trace, trace.length).failures.map((f) => f.id)).toEqual(['resume-order'])
    expect(traceInvariants(resumedFirst, resumedFirst.length).failures).toEqual([])
    const end = traceInvariants(trace, trace.length, [
      { id: 'equivalence', step: trace.length, message: 'r0 differs' },
    ])
    expect(end.invariants.equivalence).toBe('fail')
  })
})

describe('a /run answer is placed at its delivery to the controller', () => {
  const receipt = {
    rollout_id: 'r5',
    attempt_index: 0,
    execution_generation: 1,
    result_identity: 'x',
    result_digest: 'a'.repeat(64),
  }
  const done = { rollout_id: 'r5', attempt_index: 0, reward: 1, receipt }
  // The agent finishes r5 at 100 and sends its answer; the controller asks the agent to prepare at
  // 105; the answer reaches the dispatcher at 110, which acknowledges it at once.
  const agent = [rec(100, 'agent', 'controller', 'run.complete', done, 2)]
  const controller = [
    rec(105, 'controller', 'agent', 'agent.prepare', { checkpoint_id: 'ck-1' }, 1, 'prepare'),
  ]
  const dispatcher = [
    rec(110, 'agent', 'controller', 'run.complete', done, 1),
    rec(110, 'controller', 'agent', 'agent.acknowledge', { receipts: [receipt] }, 1),
  ]

  it('[controller.acks-before-prepare] a result still on its way at prepare, acknowledged on arrival, keeps the invariant', () => {
    const merged = mergeFleetTrace([
      { rank: 0, records: controller },
      { rank: 1, records: dispatcher },
      { rank: 2, records: withoutDeliveredAnswers(agent, new Set(['r5.a0'])) },
    ])
    expect(merged.map((e) => e.type)).toEqual([
      'agent.prepare',
      'run.complete',
      'agent.acknowledge',
    ])
    expect(traceInvariants(merged, merged.length).invariants['acks-before-prepare']).toBe('pass')
  })

  it('[controller.acks-before-prepare] placed at its sending instead, the same exchange reads as an acknowledgement held back', () => {
    const merged = mergeFleetTrace([
      { rank: 0, records: controller },
      { rank: 1, records: dispatcher.slice(1) },
      { rank: 2, records: agent },
    ])
    expect(traceInvariants(merged, merged.length).invariants['acks-before-prepare']).toBe('fail')
  })
})

import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { TraceEvent } from '../contracts/trace.ts'
import { renderSequenceDiagram } from '../render/renderSequenceDiagram.ts'
import { parseRecording } from './parseRecording.ts'
import { RecordedTraceBuilder } from './RecordedTraceBuilder.ts'
import { recordedChecks } from './recordedChecks.ts'
import { recordedViews } from './recordedViews.ts'

const fixture = (name: string): string =>
  readFileSync(
    new URL(`../../../../vendor/real_stack/${name}/exchanges.jsonl`, import.meta.url),
    'utf8',
  )

function traceOf(text: string): TraceEvent[] {
  const builder = new RecordedTraceBuilder()
  return parseRecording(text).entries.map((e) => builder.add(e.exchange, e.line))
}

const checkOf = (events: readonly TraceEvent[], id: string) =>
  recordedChecks(events, []).find((c) => c.id === id)

describe('a recorded trace', () => {
  it('[recorded.trace] one event per exchange in the recording order, controller → participant, phases from the control routes (d1-adapted-cycle)', () => {
    const text = fixture('d1-adapted-cycle')
    const events = traceOf(text)
    const lines = text.trim().split('\n')
    expect(events).toHaveLength(lines.length)
    expect(events.map((e) => e.payload['exchange'])).toEqual(lines.map((_, i) => i + 1))
    expect(events.map((e) => e.step)).toEqual(lines.map((_, i) => i + 1))
    // The real controller's control calls, in the order it made them.
    const control = events.filter((e) => String(e.payload['path']).startsWith('/ng-control/'))
    expect(control.every((e) => e.from === 'controller')).toBe(true)
    expect(
      control
        .filter(
          (e) =>
            !['participant.capabilities', 'agent.status', 'agent.acknowledge'].includes(e.type),
        )
        .map((e) => `${e.phase} ${e.type} ${e.to}`),
    ).toEqual([
      'prepare agent.prepare agent',
      'prepare model.pause policy_model',
      'prepare model.status policy_model',
      'prepare resources.prepare resources_blackjack',
      'prepare resources.prepare resources_counter',
      'prepare resources.prepare resources_workplace',
      'commit agent.commit agent',
      'commit resources.commit resources_blackjack',
      'commit resources.commit resources_counter',
      'commit model.commit policy_model',
      'commit resources.commit resources_workplace',
      'restore agent.restore agent',
      'restore resources.restore resources_blackjack',
      'restore resources.restore resources_counter',
      'restore model.restore policy_model',
      'restore resources.restore resources_workplace',
      'resume resources.resume resources_blackjack',
      'resume resources.resume resources_counter',
      'resume model.resume policy_model',
      'resume resources.resume resources_workplace',
      'resume agent.resume agent',
    ])
    // After the resumes the rollouts continue; time never goes backwards.
    expect(events[41]?.phase).toBe('continue')
    for (let i = 1; i < events.length; i++)
      expect((events[i] as TraceEvent).time_ms).toBeGreaterThanOrEqual(
        (events[i - 1] as TraceEvent).time_ms,
      )
    // The long poll is one call with its wait; the exchange is whole in the payload.
    const poll = events.find((e) => e.type === 'model.status')
    expect(poll?.payload['long_poll']).toBe(true)
    expect(poll?.payload['query']).toMatchObject({ wait_state: 'paused' })
    expect(poll?.payload['response']).toMatchObject({ state: 'paused' })
    expect(poll?.payload['bridged']).toMatchObject({ query: { wait_state: 'paused' } })
    // The /run calls whose agent was killed never got an answer.
    expect(events[22]).toMatchObject({ type: 'run.dispatch', outcome: 'transport_error' })
    expect(events[22]?.payload['http_status']).toBeNull()
  })

  it('[recorded.trace] the diagram draws the controller and every participant, each message with its route and status', () => {
    const events = traceOf(fixture('d1-unadapted'))
    const diagram = renderSequenceDiagram(events, { window: { from: 1, to: 8 } })
    for (const who of ['controller', 'agent', 'policy_model', 'resources_counter'])
      expect(diagram.source).toContain(who)
    expect(diagram.source).toMatch(/agent\.prepare ✗ invalid_request .*400/)
  })

  it("[recorded.checks] d1-unadapted: control-accepted fails at the agent's prepare, the 400 invalid_request it answered", () => {
    const events = traceOf(fixture('d1-unadapted'))
    const check = checkOf(events, 'control-accepted')
    expect(check).toMatchObject({ status: 'fail', exchange: 6, step: 6 })
    expect(check?.message).toMatch(/agent POST \/ng-control\/v1\/agent-checkpoint\/prepare/)
    expect(check?.message).toMatch(/400 invalid_request: .*schema_version/)
    // The resumes after the refused prepare are the abort's.
    expect(events.slice(6, 8).map((e) => `${e.phase} ${e.type}`)).toEqual([
      'abort agent.resume',
      'abort agent.resume',
    ])
    expect(checkOf(events, 'error-envelope')?.status).toBe('pass')
  })

  it('[recorded.checks] d2-restore-real-resources: a resume before every restore succeeded, at the first resume', () => {
    const events = traceOf(fixture('d2-restore-real-resources'))
    const check = checkOf(events, 'resume-after-restore')
    expect(check).toMatchObject({ status: 'fail', exchange: 19 })
    expect(check?.message).toMatch(/resources_counter, resources_workplace had restored ck-1/)
    // It stands for the simulated run's resume-order invariant.
    const { invariants, failures } = recordedViews(events, []).invariantsAt(events.length)
    expect(invariants['resume-order']).toBe('fail')
    expect(failures).toEqual([expect.objectContaining({ id: 'resume-order', step: 19 })])
    expect(recordedViews(events, []).invariantsAt(18).invariants['resume-order']).toBe('pass')
  })

  it('[recorded.checks] d1-adapted-cycle passes every check it can observe', () => {
    const checks = recordedChecks(traceOf(fixture('d1-adapted-cycle')), [])
    expect(checks.filter((c) => c.status === 'fail')).toEqual([])
    expect(checks.find((c) => c.id === 'acks-before-prepare')?.status).toBe('pass')
    expect(checks.find((c) => c.id === 'fenced-attempt-silent')?.status).toBe('pass')
  })

  it('[recorded.checks] the directory checks read the facts: unpublished after every commit, a manifest naming other participants, files that do not verify', () => {
    const commit = traceOf(fixture('d2-commit-real-resources'))
    const unpublished = recordedChecks(commit, [
      {
        checkpoint_id: 'ck-d2-1',
        path: '/d/ck-d2-1',
        exists: true,
        aggregate: null,
        problems: [
          {
            code: 'schema_error',
            path: 'resources/counter/r1.a0.json',
            message: 'schema_version: Invalid input: expected 2',
          },
        ],
      },
    ])
    expect(unpublished.find((c) => c.id === 'published-after-commit')).toMatchObject({
      status: 'fail',
      exchange: 45,
    })
    const verifies = unpublished.find((c) => c.id === 'commit-verifies')
    expect(verifies).toMatchObject({ status: 'fail', exchange: 31 })
    expect(verifies?.message).toMatch(/schema_error at resources\/counter\/r1\.a0\.json/)

    const discovery = traceOf(fixture('d1-restore-cutover-checkpoint'))
    const mismatch = recordedChecks(discovery, [
      {
        checkpoint_id: 'ck-1',
        path: '/d/ck-1',
        exists: true,
        aggregate: {
          appeared_s: null,
          participants: [
            { participant_id: 'policy_model', name: 'policy' },
            { participant_id: 'agent', name: 'agent' },
          ],
        },
        problems: [],
      },
    ]).find((c) => c.id === 'manifest-participants')
    expect(mismatch).toMatchObject({ status: 'fail', exchange: 5 })
    expect(mismatch?.message).toMatch(
      /lists participant_id agent, policy_model.*capabilities name agent, blackjack, counter, policy, workplace/,
    )
  })

  it('[recorded.checks] committed-before-manifest allows a file clock a tick behind the last commit answer, and no more', () => {
    const commit = traceOf(fixture('d2-commit-real-resources'))
    const ends = commit
      .filter(
        (e) =>
          typeof e.payload['path'] === 'string' &&
          /-checkpoint\/commit$/.test(e.payload['path'] as string),
      )
      .map((e) => e.payload['wall_end_s'] as number)
    const last = Math.max(...ends)
    const verdict = (appeared_s: number) =>
      recordedChecks(commit, [
        {
          checkpoint_id: 'ck-d2-1',
          path: '/d/ck-d2-1',
          exists: true,
          aggregate: { appeared_s, participants: [] },
          problems: [],
        },
      ]).find((c) => c.id === 'committed-before-manifest')?.status
    expect(verdict(last + 0.05)).toBe('pass')
    // the kernel stamps files from its coarse clock: a manifest written just after the answer
    expect(verdict(last - 0.004)).toBe('pass')
    expect(verdict(last - 0.5)).toBe('fail')
  })

  it('[recorded.checks] cards say what the answers said: phase, admission, readiness, tombstones, manifest digest', () => {
    const events = traceOf(fixture('d1-adapted-cycle'))
    const views = recordedViews(events, [])
    const at = (step: number, id: string) => views.participantsAt(step).find((p) => p.id === id)
    expect(views.participantsAt(0).map((p) => p.id)).toEqual([
      'controller',
      'agent',
      'policy_model',
      'resources_blackjack',
      'resources_counter',
      'resources_workplace',
    ])
    expect(at(1, 'agent')).toMatchObject({ phase: 'idle' })
    expect(at(12, 'agent')).toMatchObject({
      phase: 'preparing',
      admission: 'preparing',
      inflight: 4,
    })
    expect(at(12, 'agent')?.readiness).toBe('not ready: 4 running')
    expect(at(14, 'policy_model')).toMatchObject({ phase: 'prepared', admission: 'paused' })
    expect(at(14, 'policy_model')?.readiness).toBe('1/1 workers acknowledged')
    expect(at(22, 'policy_model')?.manifest_digest).toMatch(/^a8e548674f/)
    expect(at(35, 'policy_model')).toMatchObject({ phase: 'restored_paused' })
    expect(at(35, 'policy_model')?.tombstones).toEqual(['r1.a0', 'r2.a0', 'r4.a0', 'r5.a0'])
    expect(at(41, 'agent')).toMatchObject({ phase: 'idle', admission: 'accepting' })
    // Sessions from /run and the agent's commit and restore.
    const rows = views.sessionsAt(events.length)
    expect(rows.find((r) => r.key === 'r0.a0')).toMatchObject({
      state: 'terminal',
      environment: 'blackjack',
    })
    expect(rows.find((r) => r.key === 'r1.a0')).toMatchObject({
      state: 'exported',
      environment: 'counter',
    })
    expect(rows.find((r) => r.key === 'r1.a1')?.state).toBe('terminal')
  })

  it('[import.malformed-line] a line that is not an exchange is named; a torn last line is the truncated tail and the rest is kept', () => {
    const good = fixture('d1-restore-cutover-checkpoint').trim().split('\n')
    const malformed = parseRecording(`${good[0]}\n{"participant": "agent"}\n${good[1]}\n`)
    expect(malformed.entries).toHaveLength(2)
    expect(malformed.malformed).toEqual([
      expect.objectContaining({
        line: 2,
        message: expect.stringMatching(/line 2 is not an exchange: it has no method, path/),
      }),
    ])
    const notJson = parseRecording(`${good[0]}\nnot json\n`)
    expect(notJson.malformed[0]?.message).toMatch(/line 2 is not JSON/)
    const torn = parseRecording(`${good[0]}\n${good[1]}\n${(good[2] as string).slice(0, 40)}`)
    expect(torn.entries.map((e) => e.line)).toEqual([1, 2])
    expect(torn.malformed).toEqual([])
    expect(torn.truncated?.line).toBe(3)
    expect(torn.truncated?.message).toMatch(
      /line 3 is cut short .*truncated mid-line; the 2 exchanges before it are kept/,
    )
  })
})

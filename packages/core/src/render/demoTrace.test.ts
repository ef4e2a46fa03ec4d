import { describe, expect, it } from 'vitest'
import { ERROR_CODES } from '../contracts/errors.ts'
import { TRACE_PHASES } from '../contracts/trace.ts'
import { demoTrace } from './demoTrace.ts'

const PARTICIPANT =
  /^(controller|policy_model|model_worker_\d+|agent|resources_(blackjack|counter|workplace)|generation_worker|token_store|directory|rollout_r\d+)$/

describe('demoTrace', () => {
  it('[demo-contract] is a valid trace: steps from 1, virtual time rising, contract phases, participants and outcomes', () => {
    const events = demoTrace()
    expect(events.length).toBeGreaterThanOrEqual(18)
    events.forEach((e, i) => {
      expect(e.step).toBe(i + 1)
      if (i > 0)
        expect(e.time_ms).toBeGreaterThanOrEqual((events[i - 1] as (typeof events)[number]).time_ms)
      expect(TRACE_PHASES).toContain(e.phase)
      expect(e.from).toMatch(PARTICIPANT)
      expect(e.to).toMatch(PARTICIPANT)
      if (e.outcome !== 'ok') expect(ERROR_CODES as readonly string[]).toContain(e.outcome)
    })
  })

  it('[demo-cycle] follows one checkpoint cycle in protocol order: aggregate manifest last, dependencies resumed before agents', () => {
    const events = demoTrace()
    expect([...new Set(events.map((e) => e.phase))]).toEqual([
      'run',
      'prepare',
      'commit',
      'restore',
      'resume',
      'continue',
    ])
    const prepare = events
      .filter((e) => e.phase === 'prepare' && e.from === 'controller')
      .map((e) => e.type)
    expect(prepare.indexOf('agent.prepare')).toBeLessThan(prepare.indexOf('model.pause'))
    expect(prepare.indexOf('model.pause')).toBeLessThan(prepare.indexOf('resources.prepare'))
    const commit = events.filter((e) => e.phase === 'commit')
    expect(commit[commit.length - 1]?.payload['path']).toBe('nemo_gym_checkpoint_manifest.json')
    const resume = events.filter((e) => e.phase === 'resume').map((e) => e.to)
    expect(resume[resume.length - 1]).toBe('agent')
    expect(demoTrace()).toEqual(events)
  })
})

import { describe, expect, it } from 'vitest'
import { PyRandom } from '../rng/PyRandom.ts'
import { TRACE_PHASES } from './trace.ts'
import type { TraceEvent, TracePhase } from './trace.ts'
import { BANDED_PHASES, createRunSummaryBuilder, phaseBands, runSummary } from './runSummary.ts'

const ev = (
  step: number,
  phase: TracePhase,
  type: string,
  payload: Record<string, unknown> = {},
  outcome = 'ok',
): TraceEvent =>
  ({
    step,
    time_ms: step,
    phase,
    from: 'controller',
    to: 'agent',
    type,
    payload,
    outcome,
  }) as unknown as TraceEvent

const TYPES = [
  'model.request',
  'rollout.retired',
  'directory.write',
  'controller.abort',
  'run.dispatch',
  'agent.restore',
] as const

/** A random trace: phases in runs (as a cycle's are), some events that are key moments. */
function randomTrace(seed: number, length: number): TraceEvent[] {
  const rng = PyRandom.fromSeed(BigInt(seed))
  const out: TraceEvent[] = []
  let phase: TracePhase = 'run'
  for (let step = 1; step <= length; step++) {
    if (rng.randbelow(5) === 0)
      phase = TRACE_PHASES[rng.randbelow(TRACE_PHASES.length)] as TracePhase
    const type = TYPES[rng.randbelow(TYPES.length)] as string
    const payload = {
      rollout_id: `r${rng.randbelow(4)}`,
      attempt_index: 0,
      path: rng.randbelow(3) === 0 ? 'checkpoint.json' : 'agent/x.json',
      checkpoint_id: 'ck-1',
      delayed: rng.randbelow(9) === 0,
    }
    out.push(ev(step, phase, type, payload, rng.randbelow(7) === 0 ? 'refused' : 'ok'))
  }
  return out
}

describe('run summary', () => {
  it('[summary] bands, phases, moments and the last event of a small trace', () => {
    const events = [
      ev(1, 'run', 'model.request', { rollout_id: 'r0', attempt_index: 0 }),
      ev(2, 'prepare', 'agent.prepare'),
      ev(3, 'prepare', 'agent.prepare'),
      ev(4, 'retire', 'rollout.retired', { rollout_id: 'r0', attempt_index: 0 }),
      ev(5, 'commit', 'directory.write', { checkpoint_id: 'ck-1', path: 'checkpoint.json' }),
      ev(6, 'restore', 'agent.restore'),
      ev(7, 'restore', 'model.restore'),
    ]
    expect(runSummary(events)).toEqual({
      total: 7,
      bands: [
        { phase: 'prepare', from: 2, to: 3 },
        { phase: 'retire', from: 4, to: 4 },
        { phase: 'commit', from: 5, to: 5 },
        { phase: 'restore', from: 6, to: 7 },
      ],
      phases: ['run', 'prepare', 'retire', 'commit', 'restore'],
      moments: [
        { step: 4, kind: 'retired', label: 'straggler r0.a0 retired' },
        { step: 5, kind: 'published', label: 'checkpoint ck-1 published' },
        { step: 6, kind: 'restore', label: 'restore begins' },
      ],
      last: events[6],
    })
    expect(runSummary([])).toEqual({ total: 0, bands: [], phases: [], moments: [], last: null })
  })

  it('[summary] built in batches of any size (a streaming run asked at its edges) it is the summary of the whole trace, over 40 seeds', () => {
    for (let seed = 0; seed < 40; seed++) {
      const events = randomTrace(seed, 250)
      const whole = runSummary(events)
      const rng = PyRandom.fromSeed(BigInt(1000 + seed))
      const builder = createRunSummaryBuilder()
      let at = 0
      while (at < events.length) {
        const next = Math.min(events.length, at + 1 + rng.randbelow(60))
        // as the API does: the whole array so far, or the next slice with where it starts
        if (rng.randbelow(2) === 0) builder.addFrom(events.slice(0, next))
        else builder.addFrom(events.slice(at, next), at)
        at = next
        // a summary asked mid-way is the summary of the prefix, and does not change later
        const mid = builder.summary()
        expect(mid).toEqual(runSummary(events.slice(0, at)))
      }
      expect(builder.summary()).toEqual(whole)
      // bands are the maximal runs of consecutive steps in one banded phase, in step order
      expect(whole.bands).toEqual(phaseBands(events))
      const banded = new Set(
        events
          .filter((e) => (BANDED_PHASES as readonly string[]).includes(e.phase))
          .map((e) => e.step),
      )
      expect(
        new Set(
          whole.bands.flatMap((b) =>
            Array.from({ length: b.to - b.from + 1 }, (_, i) => b.from + i),
          ),
        ),
      ).toEqual(banded)
      for (const [a, b] of whole.bands.slice(1).map((band, i) => [whole.bands[i], band] as const))
        expect(a!.to < b.from && !(a!.phase === b.phase && a!.to + 1 === b.from)).toBe(true)
    }
  })
})

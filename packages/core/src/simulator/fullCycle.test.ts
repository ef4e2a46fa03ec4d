import type { TraceEventType } from '../contracts/trace.ts'
import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { loadNodeWorkplaceData } from '../adapters/nodeWorkplaceData.ts'
import type { EnvironmentServer } from '../environments/EnvironmentServer.ts'
import { parseWorkplaceBase } from '../environments/workplace/WorkplaceData.ts'
import { createWorkplaceServer } from '../environments/workplace/workplaceServer.ts'
import { verifyCheckpoint } from '../directory/verifyCheckpoint.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { resolveRunConfig } from './simulate.ts'
import type { RolloutOutcome } from './RolloutOutcome.ts'
import { sameOutcome } from './RolloutOutcome.ts'
import { canonicalJson } from '../json.ts'
import { Simulator } from './Simulator.ts'
import { defaultEnvFactory } from './World.ts'

const base = parseWorkplaceBase(loadNodeWorkplaceData(), nodeDigest)
const envs = defaultEnvFactory(
  () => createWorkplaceServer(base) as unknown as EnvironmentServer<unknown>,
)

function sim(seed: string, checkpoint: boolean) {
  const dirs = new Map<string, MemoryCheckpointDirectory>()
  const s = new Simulator(
    resolveRunConfig({ scenario: 'straggler-retirement', seed, rollouts: 12 }),
    {
      digest: nodeDigest,
      openDirectory: (id) => {
        const d = new MemoryCheckpointDirectory({ location: id })
        dirs.set(id, d)
        return d
      },
      envs,
      workplaceExamples: base.examples,
      checkpoint,
      record: checkpoint,
    },
  )
  for (const _ of s.run()) void _
  return { s, dirs }
}

describe('full cycle over all three environments (in memory)', () => {
  it('[controller.straggler-sacrifice] [cycle] prepare, retire the straggler, commit, restore N+1 in fresh processes, resume, continue: every continued rollout ends exactly as without the checkpoint', () => {
    const seed = '3'
    const { s, dirs } = sim(seed, true)
    const baseline = sim(seed, false).s
    const types = s.recorder.events.map((e) => e.type)
    // the phases in order
    const first = (t: TraceEventType) => types.indexOf(t)
    expect(first('agent.prepare')).toBeLessThan(first('model.pause'))
    expect(first('model.pause')).toBeLessThan(first('resources.prepare'))
    expect(first('model.abort_inflight')).toBeGreaterThan(first('model.pause'))
    expect(first('agent.commit')).toBeLessThan(first('model.commit'))
    expect(first('model.commit')).toBeLessThan(first('resources.commit'))
    expect(first('model.restore')).toBeGreaterThan(first('token_store.snapshot'))
    expect(first('model.resume')).toBeLessThan(first('agent.resume'))
    // continued rollouts from every environment
    const envsContinued = new Set(
      [...s.continued].map((id) => ['blackjack', 'counter', 'workplace'][Number(id.slice(1)) % 3]),
    )
    expect([...envsContinued].sort()).toEqual(['blackjack', 'counter', 'workplace'])
    for (const id of s.continued) {
      const a = s.outcomes.get(id)
      const b = baseline.outcomes.get(id)
      expect(a?.attempt_index).toBe(1)
      expect(b?.attempt_index).toBe(0)
      expect(a && outcomeText(a)).toBe(b && outcomeText(b))
      expect(a !== undefined && b !== undefined && sameOutcome(a, b)).toBe(true)
    }
    // every rollout finished; the straggler under a fresh attempt
    expect(s.outcomes.size).toBe(12)
    expect(s.outcomes.get('r00')?.attempt_index).toBe(1)
    expect(s.continued.has('r00')).toBe(false)
    // the published directory verifies
    const ck = dirs.get('ck-1') as MemoryCheckpointDirectory
    expect(verifyCheckpoint(ck, nodeDigest).problems).toEqual([])
  })

  it('[fence.stale-attempt-everywhere] [cycle] fencing of attempt N after restore on all three participants', () => {
    const { s } = sim('3', true)
    const w = s.world
    const continued = [...s.continued].sort()
    const r = continued.find((id) => Number(id.slice(1)) % 3 === 1) as string
    const stale = { rollout_id: r, attempt_index: 0 }
    expect(w.model.admit(stale).ok).toBe(false)
    const m = w.model.admit(stale)
    expect(!m.ok && m.error.code).toBe('stale_attempt')
    const a = w.agent.begin(stale)
    expect(!a.ok && a.error.code).toBe('stale_attempt')
    const res = w.resources.counter.handleRequest({
      path: '/increment_counter',
      method: 'POST',
      body: { count: 1 },
      identity: stale,
    })
    expect(res.code).toBe('stale_attempt')
  })
})

/** An outcome's canonical JSON: equal texts are the definition of equivalent outcomes. */
function outcomeText(o: RolloutOutcome): string {
  return canonicalJson({
    reward: o.reward,
    outputs: o.outputs,
    env_outputs: o.env_outputs,
    final_state: o.finalState(),
  })
}

import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { loadNodeWorkplaceData } from '../adapters/nodeWorkplaceData.ts'
import { SCENARIO_NAMES } from '../contracts/scenarios.ts'
import type { ScenarioName } from '../contracts/scenarios.ts'
import { verifyCheckpoint } from '../directory/verifyCheckpoint.ts'
import { resolveRunConfig, runSimulation } from '../simulator/simulate.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { SCENARIOS } from './presets.ts'

const workplace = loadNodeWorkplaceData()

export function run(scenario: ScenarioName, seed = '0', rollouts?: number) {
  const dirs = new Map<string, MemoryCheckpointDirectory>()
  const deps = {
    digest: nodeDigest,
    workplace,
    openDirectory: (id: string) => {
      let d = dirs.get(id)
      if (d === undefined) {
        d = new MemoryCheckpointDirectory({ location: `mem://${id}` })
        dirs.set(id, d)
      }
      return d
    },
  }
  const result = runSimulation(resolveRunConfig({ scenario, seed, ...(rollouts === undefined ? {} : { rollouts }) }), deps)
  return { result, dirs }
}

const types = (r: ReturnType<typeof run>['result'], type: string, outcome?: string) => r.events.filter((e) => e.type === type && (outcome === undefined || e.outcome === outcome))

describe('scenario presets', () => {
  it('[scenarios] every preset has a title and a one-paragraph narrative', () => {
    expect(SCENARIOS.map((s) => s.name)).toEqual([...SCENARIO_NAMES])
    for (const s of SCENARIOS) {
      expect(s.title.length).toBeGreaterThan(3)
      expect(s.narrative.length).toBeGreaterThan(100)
      expect(s.narrative).not.toContain('\n')
    }
  })

  for (const name of SCENARIO_NAMES) {
    it(`[scenarios] ${name} keeps every invariant and publishes a valid checkpoint`, () => {
      const { result, dirs } = run(name)
      if (process.env.SIMDUMP) require('node:fs').writeFileSync(`/tmp/simtest/${name}.txt`, result.events.map((e) => `${e.step} ${e.time_ms} ${e.phase} ${e.from}->${e.to} ${e.type} ${e.outcome} ${JSON.stringify(e.payload).slice(0, 200)}`).join('\n'))
      expect(result.failures).toEqual([])
      expect(result.outcome).toBe('completed')
      const valid = result.checkpoints.filter((c) => !c.damaged)
      expect(valid.length).toBeGreaterThan(0)
      for (const c of valid) {
        const report = verifyCheckpoint(dirs.get(c.checkpoint_id) as MemoryCheckpointDirectory, nodeDigest)
        expect(report.problems).toEqual([])
      }
    })
  }

  it('[straggler-retirement] the straggler is retired on all three participants, tombstoned, redispatched fresh and its stale request refused', () => {
    const { result } = run('straggler-retirement')
    expect(types(result, 'model.abort_inflight', 'ok').map((e) => e.payload['rollout_id'])).toEqual(['r0'])
    expect(types(result, 'agent.retire', 'ok').map((e) => e.payload['rollout_id'])).toEqual(['r0'])
    expect(types(result, 'resources.retire', 'ok').map((e) => e.to)).toEqual(['resources_blackjack'])
    const redispatch = types(result, 'run.dispatch', 'ok').filter((e) => e.payload['rollout_id'] === 'r0' && e.payload['attempt_index'] === 1)
    expect(redispatch).toHaveLength(1)
    expect(redispatch[0]?.payload['continued']).toBe(false)
    const stale = types(result, 'model.request').filter((e) => e.from === 'rollout_r0')
    expect(stale.map((e) => e.outcome)).toEqual(['stale_attempt'])
  })
})

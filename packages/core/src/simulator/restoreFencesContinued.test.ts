import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { loadNodeWorkplaceData } from '../adapters/nodeWorkplaceData.ts'
import type { Fault } from '../contracts/scenarios.ts'
import { continuedExecutions } from '../directory/continuedExecutions.ts'
import { PolicyModel } from '../protocol/PolicyModel.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { runScenarioInMemory } from '../testing/runScenarioInMemory.ts'
import { resolveRunConfig, runSimulation } from './simulate.ts'

const workplace = loadNodeWorkplaceData()

describe('restore fences every continued attempt at the policy model (docs/protocol.md §2.3, §2.4, §8)', () => {
  it('[model.restore-fences-continued] an execution whose boundary names no model call is continued, not a root: the restored model still refuses its attempt N', () => {
    // happy-path seed 2: r7 is parked on its first boundary (no model call yet) when the checkpoint
    // is taken.
    const { dirs } = runScenarioInMemory('happy-path', '2')
    const dir = (dirs.get('ck-1') as MemoryCheckpointDirectory).reopen()
    const continued = continuedExecutions(dir, nodeDigest).map(
      (id) => `${id.rollout_id}.a${id.attempt_index}`,
    )
    expect(continued).toContain('r7.a0')
    const model = new PolicyModel(nodeDigest, {
      serverName: 'policy',
      restoreExpected: true,
      generation: 1,
    })
    const restored = model.restore('ck-1', dir)
    if (!restored.ok) throw new Error(restored.error.message)
    expect(restored.value.source_attempts).not.toContain('r7.a0')
    expect(restored.value.tombstones).toContain('r7.a0')
    expect(model.resume('ck-1').ok).toBe(true)
    const stale = model.admit({ rollout_id: 'r7', attempt_index: 0 })
    expect(stale.ok ? null : stale.error.code).toBe('stale_attempt')
    expect(model.admit({ rollout_id: 'r7', attempt_index: 1 }).ok).toBe(true)
  })

  it('[model.restore-fences-continued] over 40 seeds, a delayed attempt-N request of every rollout reaching the restored model is stale_attempt and fenced-attempt-silent holds', () => {
    const bad: string[] = []
    const faults: Fault[] = Array.from({ length: 9 }, (_, k) => ({
      kind: 'stale_request',
      rollout: k,
      participant: 'policy_model',
    }))
    for (let seed = 0; seed < 40; seed++) {
      const result = runSimulation(
        resolveRunConfig({ scenario: 'happy-path', seed: String(seed), faults }),
        {
          digest: nodeDigest,
          workplace,
          openDirectory: (id) => new MemoryCheckpointDirectory({ location: `mem://${id}` }),
        },
      )
      const delayed = result.events.filter(
        (e) => e.type === 'model.request' && e.payload['delayed'] === true,
      )
      const continued = new Set(
        result.events
          .filter((e) => e.type === 'run.dispatch' && e.payload['continued'] === true)
          .map((e) => e.payload['rollout_id']),
      )
      for (const e of delayed)
        if (continued.has(e.payload['rollout_id']) && e.outcome !== 'stale_attempt')
          bad.push(`${seed}: ${String(e.payload['rollout_id'])} ${e.outcome}`)
      if (result.failures.length > 0) bad.push(`${seed}: ${JSON.stringify(result.failures)}`)
    }
    expect(bad).toEqual([])
  })
})

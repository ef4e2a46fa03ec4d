import { it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { loadNodeWorkplaceData } from '../adapters/nodeWorkplaceData.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { resolveRunConfig, runSimulation } from '../simulator/simulate.ts'
it('perf', () => {
  const workplace = loadNodeWorkplaceData()
  for (const n of [1000, 1000]) {
    const t = performance.now()
    const r = runSimulation(resolveRunConfig({ scenario: 'straggler-retirement', rollouts: n, seed: '7' }), { digest: nodeDigest, workplace, openDirectory: (id) => new MemoryCheckpointDirectory({ location: id }) })
    const dt = performance.now() - t
    const t2 = performance.now()
    for (let s = 0; s <= r.events.length; s += 97) { r.participantsAt(s); r.sessionsAt(s); r.invariantsAt(s) }
    const dt2 = performance.now() - t2
    const t3 = performance.now(); for (let s = 0; s < 50; s++) r.lineage(r.events.length - s); const dt3 = performance.now() - t3
    console.log(n, 'events', r.events.length, 'ms', dt.toFixed(0), 'ev/s', (r.events.length / dt * 1000).toFixed(0), 'views', (dt2 / (r.events.length / 97)).toFixed(2), 'ms/step; lineage', (dt3/50).toFixed(1), r.failures, r.outcome, r.checkpoints.length)
  }
}, 120000)

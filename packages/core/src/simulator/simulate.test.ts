import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import { loadNodeWorkplaceData } from '../adapters/nodeWorkplaceData.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { resolveRunConfig, runSimulation } from './simulate.ts'

const workplace = loadNodeWorkplaceData()
const deps = () => {
  const dirs = new Map<string, MemoryCheckpointDirectory>()
  return {
    dirs,
    deps: {
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
    },
  }
}

describe('simulate', () => {
  it('[sim] happy path runs to the end with every invariant passing', () => {
    const { deps: d } = deps()
    const r = runSimulation(resolveRunConfig({ scenario: 'happy-path' }), d)
    const counts: Record<string, number> = {}
    for (const e of r.events) counts[e.type] = (counts[e.type] ?? 0) + 1
    if (process.env.SIMDUMP) require("node:fs").writeFileSync("/tmp/simtest/events.txt", r.events.map((e) => `${e.step} ${e.time_ms} ${e.phase} ${e.from}->${e.to} ${e.type} ${e.outcome} ${JSON.stringify(e.payload).slice(0, 160)}`).join("\n"))
    void counts
    expect(r.failures).toEqual([])
  })
})

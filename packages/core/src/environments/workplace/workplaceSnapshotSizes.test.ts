import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../../adapters/nodeDigest.ts'
import { loadNodeWorkplaceData } from '../../adapters/nodeWorkplaceData.ts'
import type { JsonValue } from '../../json.ts'
import { createWorkplaceCodec } from './workplaceCodec.ts'
import { parseWorkplaceBase } from './WorkplaceData.ts'
import { exampleGroundTruthSessions, workplaceSnapshotSizes } from './workplaceSnapshotSizes.ts'

const base = parseWorkplaceBase(loadNodeWorkplaceData(), nodeDigest)

describe('[wa-measure] Workplace snapshot size and export+restore throughput', () => {
  it('delta snapshots of the example tasks are far smaller than the full tables (figures printed, timing never asserted)', () => {
    const sizes = workplaceSnapshotSizes(base)
    expect(sizes.delta).toHaveLength(5)
    expect(sizes.deltaMedian * 50).toBeLessThan(sizes.fullMedian)
    const codec = createWorkplaceCodec(base)
    const sessions = exampleGroundTruthSessions(base)
    const rounds = 200
    const started = performance.now()
    for (let i = 0; i < rounds; i++) {
      for (const s of sessions) {
        const e = codec.exportState(s)
        if (!e.ok) throw new Error(e.error.message)
        const r = codec.restoreState(JSON.parse(JSON.stringify(e.value)) as JsonValue)
        if (!r.ok) throw new Error(r.error.message)
      }
    }
    const perSecond = Math.round(
      (rounds * sessions.length) / ((performance.now() - started) / 1000),
    )
    console.log(
      `[wa-measure] delta bytes per task ${sizes.delta.join(', ')} (median ${sizes.deltaMedian}); full bytes median ${sizes.fullMedian}; export+JSON+restore ${perSecond} sessions/s`,
    )
  })
})

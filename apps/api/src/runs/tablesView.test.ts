import { describe, expect, it } from 'vitest'
import { resolveRunConfig, runSimulation } from '@cutover/core'
import { loadNodeWorkplaceData, nodeDigest } from '@cutover/core/adapters'
import { MemoryCheckpointDirectory } from '@cutover/core/testing'
import { resultViews } from './RunViews.ts'

describe('tables with the request that changed each row', () => {
  it('[tables-link] every changed row of every Workplace session links to a state-changing request of that rollout, at or before the step', async () => {
    const deps = {
      digest: nodeDigest,
      workplace: loadNodeWorkplaceData(),
      openDirectory: (id: string) => new MemoryCheckpointDirectory({ location: `mem://${id}` }),
    }
    const result = runSimulation(
      resolveRunConfig({ scenario: 'straggler-retirement', seed: '0', rollouts: 12 }),
      deps,
    )
    const views = resultViews(result)
    const step = result.events.length
    let linked = 0
    for (const session of (await views.sessionsAt(step)).filter(
      (s) => s.environment === 'workplace',
    )) {
      const tables = await views.tablesView(session.key, step)
      if (tables === undefined) continue
      const changed = tables.tables.reduce(
        (n, t) => n + t.rows.filter((r) => r.status !== 'same').length + t.removed.length,
        0,
      )
      const links = Object.values(tables.changed_at ?? {}).flatMap((rows) => Object.values(rows))
      // a continued session's rows changed after prepare were changed by its own requests
      if (session.attempt > 0) expect(links.length).toBe(changed)
      for (const at of links) {
        const event = result.events[at - 1]
        expect(at).toBeLessThanOrEqual(step)
        expect(event?.payload['rollout_id']).toBe(session.rollout_id)
        expect(event?.payload['revision']).not.toBe(event?.payload['revision_before'])
        linked++
      }
    }
    expect(linked).toBeGreaterThan(0)
  })
})

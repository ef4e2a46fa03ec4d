import { afterAll, describe, expect, it } from 'vitest'
import { apiHarness, tempDataDir } from '../testing/apiHarness.ts'
import { ensureDemoRun } from './ensureDemoRun.ts'

describe('demo run', () => {
  const { dir, cleanup } = tempDataDir()
  afterAll(cleanup)

  it('[serve] an empty data directory gets the straggler-retirement demo run, once', async () => {
    const first = apiHarness(dir)
    const demo = ensureDemoRun(first.runs, first.simulator)
    expect(demo).toMatchObject({ scenario: 'straggler-retirement', status: 'running' })
    await first.runs.idle()
    const restarted = apiHarness(dir)
    expect(ensureDemoRun(restarted.runs, restarted.simulator)).toBeUndefined()
    expect((await restarted.json('/api/runs')).body.runs).toHaveLength(1)
    expect((await restarted.json('/api/runs')).body.runs[0]).toMatchObject({
      id: demo?.id,
      status: 'complete',
    })
  })
})

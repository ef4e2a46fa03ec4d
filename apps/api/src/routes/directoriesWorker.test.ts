import { describe, expect, it } from 'vitest'
import type { DirectoryRunView } from '@cutover/core/contracts'
import { startCheckpointWorker } from '../checkpoints/startVerificationWorker.ts'
import { apiHarness, tempDataDir } from '../testing/apiHarness.ts'

describe('POST /api/directories off the server thread', () => {
  it('[inspect] an opened directory is inspected in the checkpoint worker thread, and answers as the in-thread inspection does', async () => {
    const { dir, cleanup } = tempDataDir()
    try {
      const worker = startCheckpointWorker()
      const asked: string[] = []
      const offThread = apiHarness(dir, {
        inspectDirectories: (folder) => {
          asked.push(folder)
          return worker.inspect(folder)
        },
      })
      const run = await offThread.waitComplete(
        (await offThread.createRun({ scenario: 'happy-path', seed: 3, rollouts: 5 })).id,
      )
      const post = (api: ReturnType<typeof apiHarness>) =>
        api.json('/api/directories', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ path: run.checkpoints[0] }),
        })
      const opened = await post(offThread)
      expect(opened.status).toBe(201)
      expect(asked).toHaveLength(1)
      const inThread = await post(apiHarness(dir))
      // the same view (the in-thread server read the record the first one wrote, so the id and date
      // agree)
      expect(opened.body as DirectoryRunView).toEqual(inThread.body)
      // a directory that is not one: the worker's failure is the same coded 4xx
      const bad = await offThread.json('/api/directories', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ path: 'no-such-folder' }),
      })
      expect(bad.status).toBeGreaterThanOrEqual(400)
      expect(bad.status).toBeLessThan(500)
    } finally {
      cleanup()
    }
  })
})

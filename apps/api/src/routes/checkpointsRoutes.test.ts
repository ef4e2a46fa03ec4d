import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startVerificationWorker } from '../checkpoints/startVerificationWorker.ts'
import { apiHarness, tempDataDir } from '../testing/apiHarness.ts'

type Listed = {
  checkpoints: {
    cid: string
    path: string
    valid: boolean
    files: { path: string; status: string }[]
  }[]
}

describe('checkpoint listing', () => {
  it('[api] a checkpoint listing is verified in the worker thread, reused while the folder is unchanged (the worker walks its lstat signature), and verified afresh once a file changes in place', async () => {
    const { dir, cleanup } = tempDataDir()
    try {
      const worker = startVerificationWorker()
      // Folders the worker read and hashed (it answers "unchanged" to a caller holding the current
      // signature).
      const asked: string[] = []
      let walks = 0
      const api = apiHarness(dir, {
        verifyCheckpoints: async (folder, known) => {
          walks++
          const answer = await worker(folder, known)
          if (answer.verification !== undefined) asked.push(folder)
          return answer
        },
      })
      const run = await api.waitComplete(
        (await api.createRun({ scenario: 'happy-path', rollouts: 3 })).id,
      )
      const first = (await api.json(`/api/runs/${run.id}/checkpoints`)).body as Listed
      expect(asked.length).toBe(first.checkpoints.length)
      expect((await api.json(`/api/runs/${run.id}/checkpoints`)).body).toEqual(first)
      expect(asked.length).toBe(first.checkpoints.length)
      // The unchanged check (the folder's lstat walk) ran in the worker too.
      expect(walks).toBe(2 * first.checkpoints.length)
      const checkpoint = first.checkpoints[0]
      const victim = checkpoint?.files.find(
        (f) => f.path.startsWith('agent/') && f.path !== 'agent/manifest.json',
      )
      if (checkpoint === undefined || victim === undefined)
        throw new Error('the run has an agent record')
      expect(checkpoint.valid).toBe(true)
      // Same size, one byte different: only a fresh verification can see it.
      const file = join(dir, checkpoint.path, victim.path)
      const bytes = readFileSync(file)
      const at = bytes.indexOf('"'.charCodeAt(0))
      bytes[at + 1] = bytes[at + 1] === 'x'.charCodeAt(0) ? 'y'.charCodeAt(0) : 'x'.charCodeAt(0)
      writeFileSync(file, bytes)
      const again = (
        (await api.json(`/api/runs/${run.id}/checkpoints`)).body as Listed
      ).checkpoints.find((c) => c.cid === checkpoint.cid)
      expect(asked.length).toBe(first.checkpoints.length + 1)
      expect(again?.valid).toBe(false)
      expect(again?.files.find((f) => f.path === victim.path)?.status).toBe('digest_mismatch')
    } finally {
      cleanup()
    }
  })
})

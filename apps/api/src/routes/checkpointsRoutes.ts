import { Hono } from 'hono'
import type { Digest } from '@cutover/core'
import type { CheckpointView } from '@cutover/core/contracts'
import type { CheckpointVerification } from '../checkpoints/checkpointVerification.ts'
import { checkpointVerification } from '../checkpoints/checkpointVerification.ts'
import type { VerifyCheckpointFolder } from '../checkpoints/startVerificationWorker.ts'
import { cutoverErrorResponse, errorResponse } from '../http/errorResponse.ts'
import { validate } from '../http/jsonBody.ts'
import type { RunManager } from '../runs/RunManager.ts'
import { folderSignature } from '../store/folderSignature.ts'
import type { RunStore } from '../store/RunStore.ts'
import { checkpointIdParam } from './params.ts'
import { requireWholeRun } from './runsRoutes.ts'

const CONTENT_TYPES: readonly (readonly [string, string])[] = [
  ['.json', 'application/json; charset=utf-8'],
  ['.jsonl', 'application/x-ndjson; charset=utf-8'],
]

/** Verified checkpoint folders remembered (each a few hundred KB of view at 1,000 rollouts). */
const REMEMBERED = 32

/**
 * A run's checkpoint directories with their verification, and the files in them. With
 * `verifyFolder` (the server's verification worker) the reading and hashing runs off this thread.
 */
export function checkpointsRoutes(
  runs: RunManager,
  store: RunStore,
  digest: Digest,
  verifyFolder?: VerifyCheckpointFolder,
): Hono {
  const app = new Hono()
  // Verifying a folder reads and hashes every file (≈ 0.2–0.5 s at 1,000 rollouts, seconds at
  // 10,000); the result is reused while the folder's lstat fingerprint is unchanged, so a tampered,
  // added or removed file (or symlink) is verified afresh.
  // With the worker, the lstat walk that decides it runs there too (≈ 25 ms at 1,000 rollouts,
  // ten times that at 10,000): this thread sends the signature it holds and gets either "unchanged"
  // or the new verification.
  const verified = new Map<string, { signature: string; view: CheckpointVerification }>()
  const remember = (
    folder: string,
    signature: string,
    view: CheckpointVerification,
  ): CheckpointVerification => {
    verified.delete(folder)
    verified.set(folder, { signature, view })
    for (const oldest of verified.keys()) {
      if (verified.size <= REMEMBERED) break
      verified.delete(oldest)
    }
    return view
  }
  const verify = async (
    runId: string,
    cid: string,
  ): Promise<CheckpointVerification | undefined> => {
    const folder = store.checkpointPath(runId, cid)
    const known = verified.get(folder)
    if (verifyFolder !== undefined) {
      const answer = await verifyFolder(folder, known?.signature)
      if (answer.verification === undefined)
        return known?.view ?? (await verifyFolder(folder)).verification
      return remember(folder, answer.signature, answer.verification)
    }
    const signature = folderSignature(folder)
    if (known !== undefined && known.signature === signature) return known.view
    const dir = store.readCheckpoint(runId, cid)
    if (dir === undefined) return undefined
    return remember(folder, signature, checkpointVerification(dir, digest))
  }

  app.get('/runs/:id/checkpoints', async (c) => {
    const run = requireWholeRun(c, runs)
    if (run instanceof Response) return run
    const checkpoints: CheckpointView[] = []
    for (const cid of store.listCheckpoints(run.id)) {
      const checked = await verify(run.id, cid)
      if (checked === undefined) continue
      const path = store.relativePath(store.checkpointPath(run.id, cid))
      checkpoints.push({
        cid,
        checkpoint_id: cid,
        path,
        valid: checked.valid,
        damaged: run.view.damaged.includes(path),
        problems: checked.problems,
        files: checked.files,
        // Generation-safe cuts: the token-store segments with their digest status (absent when
        // none).
        ...(checked.segments === undefined ? {} : { segments: checked.segments }),
      })
    }
    return c.json({ checkpoints })
  })

  app.get('/runs/:id/checkpoints/:cid/files/*', (c) => {
    const run = requireWholeRun(c, runs)
    if (run instanceof Response) return run
    const cid = validate(checkpointIdParam, c.req.param('cid'), 'checkpoint id')
    if (!cid.ok) return cutoverErrorResponse(c, cid.error)
    if (!store.listCheckpoints(run.id).includes(cid.value))
      return errorResponse(
        c,
        'checkpoint_not_found',
        `run ${run.id} has no checkpoint ${cid.value}`,
      )
    // The raw path after `/files/`, each segment decoded once: `%2e%2e` and `%2f` cannot sneak past
    // the check.
    const rest = /\/checkpoints\/[^/]+\/files\/(.*)$/.exec(new URL(c.req.url).pathname)?.[1] ?? ''
    let relative: string
    try {
      relative = rest
        .split('/')
        .map((segment) => decodeURIComponent(segment))
        .join('/')
    } catch {
      return errorResponse(c, 'invalid_request', 'file path is not valid percent-encoding')
    }
    const file = store.readCheckpointFile(run.id, cid.value, relative)
    if (!file.ok) return cutoverErrorResponse(c, file.error)
    const type =
      CONTENT_TYPES.find(([ext]) => relative.endsWith(ext))?.[1] ?? 'application/octet-stream'
    return c.body(new Uint8Array(file.value), 200, {
      'content-type': type,
      'x-content-sha256': digest.sha256Hex(file.value),
    })
  })

  return app
}

import { Hono } from 'hono'
import type { Digest } from '@cutover/core'
import { verifyCheckpoint } from '@cutover/core'
import type { CheckpointFileView, CheckpointView } from '@cutover/core/contracts'
import { cutoverErrorResponse, errorResponse } from '../http/errorResponse.ts'
import { validate } from '../http/jsonBody.ts'
import type { RunManager } from '../runs/RunManager.ts'
import { folderSignature } from '../store/folderSignature.ts'
import type { RunStore } from '../store/RunStore.ts'
import { checkpointIdParam } from './params.ts'
import { requireRun } from './runsRoutes.ts'

const CONTENT_TYPES: readonly (readonly [string, string])[] = [
  ['.json', 'application/json; charset=utf-8'],
  ['.jsonl', 'application/x-ndjson; charset=utf-8'],
]

/** Each file's status from the verifier's problems (the one source of truth for integrity). */
function fileStatus(path: string, problems: readonly { code: string; path: string | null }[]): CheckpointFileView['status'] {
  const mine = problems.filter((p) => p.path === path).map((p) => p.code)
  if (mine.includes('digest_mismatch') || mine.includes('integrity_mismatch')) return 'digest_mismatch'
  if (mine.includes('unlisted_file')) return 'unlisted'
  return 'ok'
}

/** Verified checkpoint folders remembered (each a few hundred KB of view at 1,000 rollouts). */
const REMEMBERED = 32

type Verified = Pick<CheckpointView, 'valid' | 'problems' | 'files'>

/** A run's checkpoint directories with their verification, and the files in them. */
export function checkpointsRoutes(runs: RunManager, store: RunStore, digest: Digest): Hono {
  const app = new Hono()
  // Verifying a folder reads and hashes every file (≈ 0.2–0.5 s on the server's thread at 1,000
  // rollouts); the result is reused while the folder's lstat fingerprint is unchanged, so a tampered,
  // added or removed file (or symlink) is verified afresh.
  const verified = new Map<string, { signature: string; view: Verified }>()
  const verify = (runId: string, cid: string): Verified | undefined => {
    const folder = store.checkpointPath(runId, cid)
    const signature = folderSignature(folder)
    const known = verified.get(folder)
    if (known !== undefined && known.signature === signature) return known.view
    const dir = store.readCheckpoint(runId, cid)
    if (dir === undefined) return undefined
    const report = verifyCheckpoint(dir, digest)
    const files: CheckpointFileView[] = dir
      .list()
      .filter((e) => e.kind === 'file')
      .map((e) => {
        const bytes = dir.readFile(e.path)
        return { path: e.path, bytes: e.bytes, sha256: bytes === undefined ? '' : digest.sha256Hex(bytes), status: fileStatus(e.path, report.problems) }
      })
    for (const problem of report.problems) {
      if (problem.code === 'missing_file' && problem.path !== null && !files.some((f) => f.path === problem.path)) {
        files.push({ path: problem.path, bytes: 0, sha256: '', status: 'missing' })
      }
    }
    const view: Verified = { valid: report.valid, problems: report.problems, files }
    verified.delete(folder)
    verified.set(folder, { signature, view })
    for (const oldest of verified.keys()) {
      if (verified.size <= REMEMBERED) break
      verified.delete(oldest)
    }
    return view
  }

  app.get('/runs/:id/checkpoints', (c) => {
    const run = requireRun(c, runs)
    if (run instanceof Response) return run
    const checkpoints: CheckpointView[] = []
    for (const cid of store.listCheckpoints(run.id)) {
      const checked = verify(run.id, cid)
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
      })
    }
    return c.json({ checkpoints })
  })

  app.get('/runs/:id/checkpoints/:cid/files/*', (c) => {
    const run = requireRun(c, runs)
    if (run instanceof Response) return run
    const cid = validate(checkpointIdParam, c.req.param('cid'), 'checkpoint id')
    if (!cid.ok) return cutoverErrorResponse(c, cid.error)
    if (!store.listCheckpoints(run.id).includes(cid.value)) return errorResponse(c, 'checkpoint_not_found', `run ${run.id} has no checkpoint ${cid.value}`)
    // The raw path after `/files/`, each segment decoded once: `%2e%2e` and `%2f` cannot sneak past the check.
    const rest = /\/checkpoints\/[^/]+\/files\/(.*)$/.exec(new URL(c.req.url).pathname)?.[1] ?? ''
    let relative: string
    try {
      relative = rest.split('/').map((segment) => decodeURIComponent(segment)).join('/')
    } catch {
      return errorResponse(c, 'invalid_request', 'file path is not valid percent-encoding')
    }
    const file = store.readCheckpointFile(run.id, cid.value, relative)
    if (!file.ok) return cutoverErrorResponse(c, file.error)
    const type = CONTENT_TYPES.find(([ext]) => relative.endsWith(ext))?.[1] ?? 'application/octet-stream'
    return c.body(new Uint8Array(file.value), 200, { 'content-type': type, 'x-content-sha256': digest.sha256Hex(file.value) })
  })

  return app
}

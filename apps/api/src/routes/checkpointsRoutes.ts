import { Hono } from 'hono'
import type { Digest } from '@cutover/core'
import { tokenSegmentViews, verifyCheckpoint } from '@cutover/core'
import type { CheckpointFileView, CheckpointView } from '@cutover/core/contracts'
import { cutoverErrorResponse, errorResponse } from '../http/errorResponse.ts'
import { validate } from '../http/jsonBody.ts'
import type { RunManager } from '../runs/RunManager.ts'
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
  if (mine.includes('digest_mismatch') || mine.includes('integrity_mismatch') || mine.includes('segment_mismatch')) return 'digest_mismatch'
  if (mine.includes('unlisted_file')) return 'unlisted'
  return 'ok'
}

/** A run's checkpoint directories with their verification, and the files in them. */
export function checkpointsRoutes(runs: RunManager, store: RunStore, digest: Digest): Hono {
  const app = new Hono()

  app.get('/runs/:id/checkpoints', (c) => {
    const run = requireRun(c, runs)
    if (run instanceof Response) return run
    const checkpoints: CheckpointView[] = []
    for (const cid of store.listCheckpoints(run.id)) {
      const dir = store.readCheckpoint(run.id, cid)
      if (dir === undefined) continue
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
      const path = store.relativePath(store.checkpointPath(run.id, cid))
      const segments = tokenSegmentViews(dir, digest)
      checkpoints.push({
        cid,
        checkpoint_id: cid,
        path,
        valid: report.valid,
        damaged: run.view.damaged.includes(path),
        problems: report.problems,
        files,
        // Generation-safe cuts: the token-store segments with their digest status (absent when none).
        ...(segments.length === 0 ? {} : { segments }),
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

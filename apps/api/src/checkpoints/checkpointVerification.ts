import type { Digest } from '@cutover/core'
import type { CheckpointDirectory } from '@cutover/core'
import { tokenSegmentViews, verifyCheckpoint } from '@cutover/core'
import type { CheckpointFileView, CheckpointView } from '@cutover/core/contracts'

/**
 * What verifying one checkpoint folder gives the checkpoints view: validity, problems, files, and
 * token-store segments (generation-safe cuts; absent when none).
 */
export type CheckpointVerification = Pick<
  CheckpointView,
  'valid' | 'problems' | 'files' | 'segments'
>

/** Each file's status from the verifier's problems (the one source of truth for integrity). */
function fileStatus(
  path: string,
  problems: readonly { code: string; path: string | null }[],
): CheckpointFileView['status'] {
  const mine = problems.filter((p) => p.path === path).map((p) => p.code)
  if (
    mine.includes('digest_mismatch') ||
    mine.includes('integrity_mismatch') ||
    mine.includes('segment_mismatch')
  )
    return 'digest_mismatch'
  if (mine.includes('unlisted_file')) return 'unlisted'
  return 'ok'
}

/**
 * Verifies a checkpoint directory and lists its files with their digests and statuses (reads and
 * hashes every file).
 */
export function checkpointVerification(
  dir: CheckpointDirectory,
  digest: Digest,
): CheckpointVerification {
  const report = verifyCheckpoint(dir, digest)
  const files: CheckpointFileView[] = dir
    .list()
    .filter((e) => e.kind === 'file')
    .map((e) => {
      const bytes = dir.readFile(e.path)
      return {
        path: e.path,
        bytes: e.bytes,
        sha256: bytes === undefined ? '' : digest.sha256Hex(bytes),
        status: fileStatus(e.path, report.problems),
      }
    })
  for (const problem of report.problems) {
    if (
      problem.code === 'missing_file' &&
      problem.path !== null &&
      !files.some((f) => f.path === problem.path)
    ) {
      files.push({ path: problem.path, bytes: 0, sha256: '', status: 'missing' })
    }
  }
  const segments = tokenSegmentViews(dir, digest)
  return {
    valid: report.valid,
    problems: report.problems,
    files,
    ...(segments.length === 0 ? {} : { segments }),
  }
}

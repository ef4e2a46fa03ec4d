import { lstatSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { RecordedDirectoryFacts } from '@cutover/core'
import {
  AGGREGATE_MANIFEST_PATH,
  CHECKPOINT_MARKER_PATH,
  TOKEN_STORE_MANIFEST_PATH,
  verifyCheckpoint,
} from '@cutover/core'
import { NodeCheckpointDirectory, nodeDigest } from '@cutover/core/adapters'
import { folderSignature } from '../store/folderSignature.ts'

/** Paths the controller writes (the publish checks' business, not the participants'). */
const CONTROLLER_FILES = [
  AGGREGATE_MANIFEST_PATH,
  CHECKPOINT_MARKER_PATH,
  TOKEN_STORE_MANIFEST_PATH,
]
const controllerOwned = (path: string | null): boolean =>
  path !== null && (CONTROLLER_FILES.includes(path) || path.startsWith('token-store/'))

const isDirectory = (path: string): boolean => {
  try {
    return lstatSync(path).isDirectory()
  } catch {
    return false
  }
}

/** The participants an aggregate manifest names, or [] when it names none readably. */
function participantsOf(manifest: unknown): { participant_id: string; name: string }[] {
  const list = (manifest as { participants?: unknown } | null)?.participants
  if (!Array.isArray(list)) return []
  return list.flatMap((p: unknown) => {
    const id = (p as { participant_id?: unknown } | null)?.participant_id
    const name = (p as { name?: unknown } | null)?.name
    return typeof id === 'string'
      ? [{ participant_id: id, name: typeof name === 'string' ? name : id }]
      : []
  })
}

/**
 * What a recording's checks need from one checkpoint directory on this machine, read without
 * writing: whether it is there, its aggregate manifest (the time its file was last written and
 * the participants it names) and what `cutover verify` finds wrong with what the participants
 * committed (problems of the controller's own files left out).
 */
export function directoryFacts(checkpointId: string, path: string): RecordedDirectoryFacts {
  if (!isDirectory(path))
    return { checkpoint_id: checkpointId, path, exists: false, aggregate: null, problems: [] }
  let aggregate: RecordedDirectoryFacts['aggregate'] = null
  const manifestPath = join(path, AGGREGATE_MANIFEST_PATH)
  try {
    const stat = lstatSync(manifestPath)
    let parsed: unknown = null
    try {
      parsed = JSON.parse(readFileSync(manifestPath, 'utf8'))
    } catch {
      // a manifest that is not JSON is verify's problem to report
    }
    aggregate = { appeared_s: stat.mtimeMs / 1000, participants: participantsOf(parsed) }
  } catch {
    aggregate = null
  }
  let problems: RecordedDirectoryFacts['problems'] = []
  try {
    const report = verifyCheckpoint(
      new NodeCheckpointDirectory(path, { create: false }),
      nodeDigest,
    )
    problems = report.problems
      .filter((p) => !controllerOwned(p.path))
      .map((p) => ({ code: p.code, path: p.path, message: p.message }))
  } catch (error) {
    problems = [
      {
        code: 'unreadable',
        path: null,
        message: error instanceof Error ? error.message : String(error),
      },
    ]
  }
  return { checkpoint_id: checkpointId, path, exists: true, aggregate, problems }
}

/**
 * `directoryFacts`, remembered per directory while its lstat fingerprint (`folderSignature`) is
 * unchanged: a live recorded run asks again whenever its recording grows, and verification reads
 * and hashes every file.
 */
export function cachedDirectoryFacts(): (
  checkpointId: string,
  path: string,
) => RecordedDirectoryFacts {
  const known = new Map<string, { signature: string; facts: RecordedDirectoryFacts }>()
  return (checkpointId, path) => {
    const key = `${checkpointId}\u0000${path}`
    const signature = isDirectory(path) ? folderSignature(path) : 'absent'
    const hit = known.get(key)
    if (hit !== undefined && hit.signature === signature) return hit.facts
    const facts = directoryFacts(checkpointId, path)
    known.delete(key)
    known.set(key, { signature, facts })
    if (known.size > 64) known.delete(known.keys().next().value as string)
    return facts
  }
}

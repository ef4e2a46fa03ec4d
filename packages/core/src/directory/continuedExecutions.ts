import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import { createDirectoryView } from './DirectoryView.ts'
import { agentManifestPath } from './layout.ts'
import { agentManifestSchema } from './manifests.ts'
import { readManifest } from './namespaceChecks.ts'
import type { Digest } from '../ports.ts'
import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import { parseKey } from '../records/ExecutionIdentity.ts'

/**
 * The executions a checkpoint continues under N+1: one per agent boundary record the agent manifest
 * lists (`<rollout_id>.a<attempt>.json`), whether or not its boundary names a committed model call.
 * Continuation roots (and so the ledger's `source_attempts`) cover only those that do. Empty when
 * the directory has no readable agent manifest (a ledger-only directory).
 */
export function continuedExecutions(dir: CheckpointDirectory, digest: Digest): ExecutionIdentity[] {
  const read = readManifest(
    createDirectoryView(dir, digest),
    agentManifestPath(),
    agentManifestSchema,
  )
  if (!read.ok) return []
  return Object.keys(read.manifest.files)
    .filter((name) => /\.a\d+\.json$/.test(name))
    .sort()
    .map((name) => parseKey(name.slice(0, -'.json'.length)))
}

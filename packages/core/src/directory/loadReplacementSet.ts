import type { ResourceSnapshot } from '../records/ResourceSnapshot.ts'
import type { Digest } from '../ports.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import { createDirectoryView } from './DirectoryView.ts'
import { AGENT_DIR } from './layout.ts'
import { loadAgentSteps } from './loadAgentNamespace.ts'
import { loadResourcesSteps } from './loadResourcesNamespace.ts'
import type { VerifySteps } from './verifySteps.ts'
import { runSteps } from './verifySteps.ts'
import type { NamespaceLoadError } from './problems.ts'
import { directoryError } from './problems.ts'
import { reconcileReplacementSet } from './reconcileReplacementSet.ts'

/** A resources server's verified, reconciled replacement set: safe to activate as one swap. */
export interface ReplacementSet {
  readonly source_checkpoint_id: string
  readonly manifest_digest: string
  readonly snapshots: readonly ResourceSnapshot[]
}

/**
 * What a resources participant's restore reads (docs/protocol.md §3.4 restore, §5.4): its
 * namespace, verified (`resources_checkpoint_error`), and — when `D/agent` exists — reconciled with
 * the agent's boundaries: the same sessions, the same revisions (`resource_revision_mismatch`). A
 * broken agent namespace refuses the restore too (`agent_checkpoint_error`). Nothing may be
 * activated unless this returns ok; the caller then installs every snapshot under attempt + 1 in
 * one swap.
 */
export function loadReplacementSet(
  dir: CheckpointDirectory,
  digest: Digest,
  server_name: string,
): Result<ReplacementSet, NamespaceLoadError> {
  return runSteps(loadReplacementSteps(dir, digest, server_name))
}

/**
 * `loadReplacementSet` one bounded batch of files at a time (`verifySteps`): its namespace, then
 * the agent's.
 */
export function* loadReplacementSteps(
  dir: CheckpointDirectory,
  digest: Digest,
  server_name: string,
): VerifySteps<Result<ReplacementSet, NamespaceLoadError>> {
  const view = createDirectoryView(dir, digest)
  const resources = yield* loadResourcesSteps(view, server_name)
  if (!resources.ok) return resources
  if (view.below(AGENT_DIR).length > 0) {
    const agent = yield* loadAgentSteps(view)
    if (!agent.ok) return agent
    const problems = reconcileReplacementSet(
      server_name,
      resources.value.snapshots,
      agent.value.records,
    )
    if (problems.length > 0) return err(directoryError('resource_revision_mismatch', problems))
  }
  return ok({
    source_checkpoint_id: resources.value.manifest.checkpoint_id,
    manifest_digest: resources.value.manifest_digest,
    snapshots: resources.value.snapshots,
  })
}

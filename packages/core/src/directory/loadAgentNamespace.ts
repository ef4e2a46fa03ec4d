import type { AgentBoundaryRecord } from '../records/AgentBoundaryRecord.ts'
import type { Digest } from '../ports.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import type { DirectoryView } from './DirectoryView.ts'
import { createDirectoryView } from './DirectoryView.ts'
import { agentDir, agentManifestPath, executionFileName } from './layout.ts'
import type { AgentManifest } from './manifests.ts'
import { agentManifestSchema } from './manifests.ts'
import { checkListedFiles, parseRecordFile, readManifest } from './namespaceChecks.ts'
import type { NamespaceLoadError } from './problems.ts'
import type { VerifySteps } from './verifySteps.ts'
import { runSteps } from './verifySteps.ts'
import { directoryError, problem } from './problems.ts'
import { agentBoundaryRecordSchema } from '../records/AgentBoundaryRecord.ts'

/** A verified agent namespace (schema 1). */
export interface LoadedAgentNamespace {
  readonly manifest: AgentManifest
  readonly manifest_digest: string
  /** Sorted by file name (`<rollout_id>.a<attempt>.json`). */
  readonly records: readonly AgentBoundaryRecord[]
  readonly file_digests: Readonly<Record<string, string>>
}

/**
 * Loads and verifies `agent/` (docs/protocol.md §5.2, schema 1): manifest schema, every digest, no
 * unlisted file or symlink, each record's schema and identity equal to its file name. Refusal code
 * `agent_checkpoint_error`.
 */
export function loadAgentNamespace(
  dir: CheckpointDirectory,
  digest: Digest,
): Result<LoadedAgentNamespace, NamespaceLoadError> {
  return loadAgentFromView(createDirectoryView(dir, digest))
}

/** `loadAgentNamespace` over an existing view. */
export function loadAgentFromView(
  view: DirectoryView,
): Result<LoadedAgentNamespace, NamespaceLoadError> {
  return runSteps(loadAgentSteps(view))
}

/** `loadAgentFromView` one bounded batch of files at a time (`verifySteps`). */
export function* loadAgentSteps(
  view: DirectoryView,
): VerifySteps<Result<LoadedAgentNamespace, NamespaceLoadError>> {
  const manifestPath = agentManifestPath()
  const read = readManifest(view, manifestPath, agentManifestSchema)
  if (!read.ok) return err(directoryError('agent_checkpoint_error', read.problems))
  const manifest = read.manifest
  const records: AgentBoundaryRecord[] = []
  const file_digests: Record<string, string> = { [manifestPath]: read.sha256 }
  const problems = yield* checkListedFiles(
    view,
    agentDir(),
    manifestPath,
    manifest.files,
    (file) => {
      file_digests[file.path] = file.sha256
      const parsed = parseRecordFile(file, agentBoundaryRecordSchema)
      if (!parsed.ok) return parsed.problem
      if (executionFileName(parsed.value) !== file.name)
        return problem(
          'schema_error',
          file.path,
          `holds ${executionFileName(parsed.value)}, not the execution its name says`,
        )
      records.push(parsed.value)
      return undefined
    },
  )
  if (problems.length > 0) return err(directoryError('agent_checkpoint_error', problems))
  return ok({ manifest, manifest_digest: read.sha256, records, file_digests })
}

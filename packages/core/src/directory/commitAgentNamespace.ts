import type { Digest } from '../ports.ts'
import type { AgentBoundaryRecord, ContinuationRoot } from '../protocol/records.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import { checkCheckpointId } from './checkCheckpointId.ts'
import { compareIdentity, continuationRootsOf } from './continuationRoots.ts'
import { encodeJsonFile } from './jsonFile.ts'
import { AGENT_SCHEMA_VERSION, agentManifestPath, agentRecordPath, executionFileName } from './layout.ts'
import { loadAgentNamespace } from './loadAgentNamespace.ts'
import type { AgentManifest } from './manifests.ts'
import { describeZodError } from './manifests.ts'
import type { DirectoryCommitError } from './problems.ts'
import { refusal } from './problems.ts'
import { agentBoundaryRecordSchema } from './recordSchemas.ts'
import { hasControlCharacter } from './safePath.ts'
import { encodeUtf8 } from './utf8.ts'
import type { PendingFile } from './writeNamespace.ts'
import { writeNamespace } from './writeNamespace.ts'

export interface AgentCommitInput {
  readonly checkpoint_id: string
  /** 1–512 UTF-8 bytes, no control characters (PROTOCOL.md §2.2). */
  readonly instance_name: string
  /** One selected boundary per exported (parked-with-boundary) execution. */
  readonly records: readonly AgentBoundaryRecord[]
}

export interface AgentCommitResult {
  readonly records: number
  readonly manifest_digest: string
  /** The continuation index the policy model's ledger commit needs (PROTOCOL.md §3.6 step 4). */
  readonly continuation_roots: readonly ContinuationRoot[]
}

/**
 * Commits `agent/` in schema 1 (PROTOCOL.md §3.3 commit, §5.2): one JSON file per boundary
 * record, then the manifest. Refusals (`agent_checkpoint_error`): invalid checkpoint id, instance
 * name or record, two records of one execution, a namespace holding another checkpoint or other
 * content. Re-committing the same checkpoint returns the existing, verified manifest.
 */
export function commitAgentNamespace(
  dir: CheckpointDirectory,
  digest: Digest,
  input: AgentCommitInput,
): Result<AgentCommitResult, DirectoryCommitError> {
  const code = 'agent_checkpoint_error'
  const idProblem = checkCheckpointId(input.checkpoint_id)
  if (idProblem) return err(refusal(code, idProblem))
  const nameBytes = encodeUtf8(input.instance_name).length
  if (nameBytes < 1 || nameBytes > 512 || hasControlCharacter(input.instance_name)) {
    return err(refusal(code, `invalid instance name ${JSON.stringify(input.instance_name)}`))
  }
  const records = [...input.records].sort(compareIdentity)
  const files: Record<string, string> = {}
  const dataFiles: PendingFile[] = []
  for (const record of records) {
    const checked = agentBoundaryRecordSchema.safeParse(record)
    if (!checked.success) return err(refusal(code, `record ${executionFileName(record)}: ${describeZodError(checked.error)}`))
    const name = executionFileName(record)
    if (files[name] !== undefined) return err(refusal(code, `two boundary records for execution ${name}`))
    const bytes = encodeJsonFile(record)
    files[name] = digest.sha256Hex(bytes)
    dataFiles.push({ path: agentRecordPath(record), bytes })
  }
  const manifest: AgentManifest = {
    schema_version: AGENT_SCHEMA_VERSION,
    checkpoint_id: input.checkpoint_id,
    instance_name: input.instance_name,
    files,
  }
  const written = writeNamespace(dir, digest, {
    code,
    checkpoint_id: input.checkpoint_id,
    manifestPath: agentManifestPath(),
    manifestBytes: encodeJsonFile(manifest),
    dataFiles,
    loadExisting: () => {
      const loaded = loadAgentNamespace(dir, digest)
      return loaded.ok ? ok({ checkpoint_id: loaded.value.manifest.checkpoint_id }) : loaded
    },
  })
  if (!written.ok) return written
  return ok({
    records: records.length,
    manifest_digest: written.value.manifest_digest,
    continuation_roots: continuationRootsOf(records),
  })
}

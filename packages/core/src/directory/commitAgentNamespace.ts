import type { Digest } from '../ports.ts'
import type { AgentBoundaryRecord } from '../records/AgentBoundaryRecord.ts'
import type { ContinuationRoot } from '../records/ContinuationRoot.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import { checkCheckpointId } from './checkCheckpointId.ts'
import { continuationRootsOf } from './continuationRoots.ts'
import { executionFiles } from './executionFiles.ts'
import { encodeJsonFile } from './jsonFile.ts'
import { AGENT_SCHEMA_VERSION, agentManifestPath, agentRecordPath } from './layout.ts'
import { loadAgentNamespace } from './loadAgentNamespace.ts'
import type { AgentManifest } from './manifests.ts'
import { describeZodError } from './manifests.ts'
import type { DirectoryCommitError } from './problems.ts'
import { refusal } from './problems.ts'
import { agentBoundaryRecordSchema } from '../records/AgentBoundaryRecord.ts'
import { isAgentBoundaryRecord } from './isAgentBoundaryRecord.ts'
import { hasControlCharacter } from './safePath.ts'
import { encodeUtf8 } from '../utf8.ts'
import { writeNamespaceSteps } from './writeNamespace.ts'
import { runSteps } from './verifySteps.ts'

/**
 * Why `record` may not be committed, or undefined. The direct check passes the records the agent
 * builds without zod (most of an agent commit's time at 1,000 rollouts went to zod's recursive JSON
 * union); whatever it does not pass, the full schema decides, with its message.
 */
function invalidRecord(record: AgentBoundaryRecord): string | undefined {
  if (isAgentBoundaryRecord(record)) return undefined
  const checked = agentBoundaryRecordSchema.safeParse(record)
  return checked.success ? undefined : describeZodError(checked.error)
}

export interface AgentCommitInput {
  readonly checkpoint_id: string
  /** 1–512 UTF-8 bytes, no control characters (docs/protocol.md §2.2). */
  readonly instance_name: string
  /** One selected boundary per exported (parked-with-boundary) execution. */
  readonly records: readonly AgentBoundaryRecord[]
}

export interface AgentCommitResult {
  readonly records: number
  readonly manifest_digest: string
  /**
   * The continuation index the policy model's ledger commit needs (docs/protocol.md §3.6
   * step 4).
   */
  readonly continuation_roots: readonly ContinuationRoot[]
}

/**
 * Commits `agent/` in schema 1 (docs/protocol.md §3.3 commit, §5.2): one JSON file per boundary
 * record, then the manifest. Refusals (`agent_checkpoint_error`): invalid checkpoint id, instance
 * name or record, two records of one execution, a namespace holding another checkpoint or other
 * content. Re-committing the same checkpoint returns the existing, verified manifest.
 */
export function commitAgentNamespace(
  dir: CheckpointDirectory,
  digest: Digest,
  input: AgentCommitInput,
): Result<AgentCommitResult, DirectoryCommitError> {
  return runSteps(commitAgentSteps(dir, digest, input))
}

/**
 * `commitAgentNamespace` writing one bounded batch of record files per step
 * (`writeNamespaceSteps`).
 */
export function* commitAgentSteps(
  dir: CheckpointDirectory,
  digest: Digest,
  input: AgentCommitInput,
): Generator<void, Result<AgentCommitResult, DirectoryCommitError>, void> {
  const code = 'agent_checkpoint_error'
  const idProblem = checkCheckpointId(input.checkpoint_id)
  if (idProblem) return err(refusal(code, idProblem))
  const nameBytes = encodeUtf8(input.instance_name).length
  if (nameBytes < 1 || nameBytes > 512 || hasControlCharacter(input.instance_name)) {
    return err(refusal(code, `invalid instance name ${JSON.stringify(input.instance_name)}`))
  }
  const encoded = executionFiles(input.records, {
    invalid: invalidRecord,
    pathOf: agentRecordPath,
    noun: 'record',
    duplicate: 'two boundary records for execution',
  })
  if (!encoded.ok) return err(refusal(code, encoded.error))
  const { items: records } = encoded.value
  const written = yield* writeNamespaceSteps(dir, digest, {
    code,
    checkpoint_id: input.checkpoint_id,
    manifestPath: agentManifestPath(),
    files: encoded.value.namespace((files) =>
      encodeJsonFile({
        schema_version: AGENT_SCHEMA_VERSION,
        checkpoint_id: input.checkpoint_id,
        instance_name: input.instance_name,
        files,
      } satisfies AgentManifest),
    ),
    loadExisting: () => loadAgentNamespace(dir, digest),
  })
  if (!written.ok) return written
  return ok({
    records: records.length,
    manifest_digest: written.value.manifest_digest,
    continuation_roots: continuationRootsOf(records),
  })
}

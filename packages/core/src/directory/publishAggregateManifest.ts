import type { ErrorCode } from '../contracts/errors.ts'
import { canonicalJson } from '../json.ts'
import type { JsonValue } from '../json.ts'
import type { Digest } from '../ports.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import { createDirectoryView } from './DirectoryView.ts'
import { checkCheckpointId } from './checkCheckpointId.ts'
import { compareIdentity } from './continuationRoots.ts'
import { encodeJsonFile, parseJsonFile } from './jsonFile.ts'
import {
  AGGREGATE_MANIFEST_PATH,
  AGGREGATE_SCHEMA_VERSION,
  PARTICIPANT_NAMESPACES,
} from './layout.ts'
import type { AggregateManifest, AggregateParticipant, LiveMembershipEntry } from './manifests.ts'
import { aggregateManifestSchema, describeZodError } from './manifests.ts'
import { isAggregateManifest } from './isAggregateManifest.ts'
import { loadParticipantNamespaceSteps } from './participantNamespaces.ts'
import type { VerifySteps } from './verifySteps.ts'
import { runSteps } from './verifySteps.ts'
import type { CheckpointProblem, DirectoryCommitError } from './problems.ts'
import { directoryError, problem, refusal } from './problems.ts'

export interface AggregateInput {
  readonly checkpoint_id: string
  readonly participants: readonly AggregateParticipant[]
  /** `"<op>:<participant_id>"` → that participant's result (e.g. `commit:blackjack`). */
  readonly participant_results: Readonly<Record<string, JsonValue>>
  readonly live_membership: readonly LiveMembershipEntry[]
}

export interface AggregateResult {
  readonly manifest_digest: string
  readonly files: number
}

/** `integrity_sha256`: sha256 of the canonical JSON of the files map (docs/protocol.md §5.5). */
export const aggregateIntegrity = (
  digest: Digest,
  files: Readonly<Record<string, string>>,
): string => digest.sha256Hex(canonicalJson(files))

/**
 * Publishes `nemo_gym_checkpoint_manifest.json` after every participant commit
 * (docs/protocol.md §5.5). Every participant's namespace is loaded and verified first, and the
 * namespaces are cross-checked (complete replacement set, continuation roots, one checkpoint id): a
 * broken one is refused with its participant's code, so corruption is never sealed into the
 * aggregate. Every file under model-ledger/, agent/ and resources/ must belong to a participant's
 * namespace. An existing aggregate of another checkpoint (or other content) is refused with
 * `checkpoint_conflict`.
 */
export function publishAggregateManifest(
  dir: CheckpointDirectory,
  digest: Digest,
  input: AggregateInput,
): Result<AggregateResult, DirectoryCommitError> {
  return runSteps(publishAggregateSteps(dir, digest, input))
}

/**
 * `publishAggregateManifest` in bounded steps: each participant namespace is read, hashed and
 * checked one batch of files at a time (`verifySteps`, one yield per batch, one file's bytes held
 * at a time); the cross-checks, the manifest and its write come after the last batch.
 */
export function* publishAggregateSteps(
  dir: CheckpointDirectory,
  digest: Digest,
  input: AggregateInput,
): VerifySteps<Result<AggregateResult, DirectoryCommitError>> {
  const idProblem = checkCheckpointId(input.checkpoint_id)
  if (idProblem) return err(refusal('invalid_request', idProblem))
  const view = createDirectoryView(dir, digest)
  const loaded = yield* loadParticipantNamespaceSteps(view, input.participants, input.checkpoint_id)
  const first = loaded.problems[0]
  if (first !== undefined) {
    return err(
      directoryError(
        first.code,
        loaded.problems.filter((p) => p.code === first.code).map((p) => p.problem),
      ),
    )
  }
  const strays: { code: ErrorCode; problem: CheckpointProblem }[] = []
  for (const namespace of PARTICIPANT_NAMESPACES) {
    for (const entry of view.below(namespace)) {
      if (loaded.file_digests[entry.path] !== undefined) continue
      const code: ErrorCode =
        namespace === 'agent'
          ? 'agent_checkpoint_error'
          : namespace === 'resources'
            ? 'resources_checkpoint_error'
            : 'ledger_mismatch'
      strays.push({
        code,
        problem:
          entry.kind === 'symlink'
            ? problem('symlink', entry.path, 'symlink under a participant namespace')
            : problem('unlisted_file', entry.path, 'belongs to no participant of this checkpoint'),
      })
    }
  }
  const stray = strays[0]
  if (stray !== undefined)
    return err(
      directoryError(
        stray.code,
        strays.map((s) => s.problem),
      ),
    )

  const files: Record<string, string> = {}
  for (const path of Object.keys(loaded.file_digests).sort())
    files[path] = loaded.file_digests[path] as string
  const manifest: AggregateManifest = {
    schema_version: AGGREGATE_SCHEMA_VERSION,
    checkpoint_id: input.checkpoint_id,
    participants: [...input.participants].sort((a, b) =>
      a.participant_id < b.participant_id ? -1 : a.participant_id > b.participant_id ? 1 : 0,
    ),
    participant_results: { ...input.participant_results },
    live_membership: [...input.live_membership].sort(compareIdentity),
    files,
    integrity_sha256: aggregateIntegrity(digest, files),
  }
  if (!isAggregateManifest(manifest)) {
    const checked = aggregateManifestSchema.safeParse(manifest)
    if (!checked.success)
      return err(
        refusal('invalid_request', `aggregate manifest: ${describeZodError(checked.error)}`),
      )
  }
  const bytes = encodeJsonFile(manifest)
  const manifest_digest = digest.sha256Hex(bytes)
  const existing = dir.readFile(AGGREGATE_MANIFEST_PATH)
  if (existing !== undefined) {
    const parsed = parseJsonFile(existing)
    const other = parsed.ok ? aggregateManifestSchema.safeParse(parsed.value) : undefined
    if (other?.success && other.data.checkpoint_id !== input.checkpoint_id) {
      return err(
        refusal(
          'checkpoint_conflict',
          `D already holds the aggregate manifest of checkpoint ${other.data.checkpoint_id}`,
        ),
      )
    }
    if (digest.sha256Hex(existing) !== manifest_digest) {
      return err(
        refusal('checkpoint_conflict', `${AGGREGATE_MANIFEST_PATH} exists with other content`),
      )
    }
    return ok({ manifest_digest, files: Object.keys(files).length })
  }
  dir.writeFile(AGGREGATE_MANIFEST_PATH, bytes)
  dir.sync()
  return ok({ manifest_digest, files: Object.keys(files).length })
}

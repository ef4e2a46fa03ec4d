import type { Digest } from '../ports.ts'
import type { ContinuationRoot } from '../records/ContinuationRoot.ts'
import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import type { LineageRow } from '../records/LineageRow.ts'
import { captureKey, executionKey } from '../records/ExecutionIdentity.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import { checkCheckpointId } from './checkCheckpointId.ts'
import { compareIdentity, continuationRootsDigest } from './continuationRoots.ts'
import { encodeJsonFile, encodeJsonLines } from './jsonFile.ts'
import { ID_PATTERN } from '../records/idPattern.ts'
import {
  LEDGER_SCHEMA_VERSION,
  ledgerLineagePath,
  ledgerManifestPath,
  lineageFileName,
} from './layout.ts'
import { loadLedgerNamespace } from './loadLedgerNamespace.ts'
import type { GenerationCutEntry, LedgerManifest, StorageReference } from './manifests.ts'
import { describeZodError } from './manifests.ts'
import type { DirectoryCommitError } from './problems.ts'
import { refusal } from './problems.ts'
import { continuationRootSchema } from '../records/ContinuationRoot.ts'
import { executionIdentitySchema } from '../records/ExecutionIdentity.ts'
import { lineageRowSchema } from '../records/LineageRow.ts'
import { isSafeFileName } from './safePath.ts'
import type { PendingFile } from './writeNamespace.ts'
import { writeNamespaceSteps } from './writeNamespace.ts'
import { runSteps } from './verifySteps.ts'

export interface LedgerCommitInput {
  readonly server_name: string
  readonly checkpoint_id: string
  /** Token-free lineage rows by capture key, each list in admission order. */
  readonly rollouts: Readonly<Record<string, readonly LineageRow[]>>
  /** Attempts aborted or retired before the cut: fenced again on restore. */
  readonly tombstones: readonly ExecutionIdentity[]
  /** The attempts being continued (N): fenced on restore so only N+1 can call. */
  readonly source_attempts: readonly ExecutionIdentity[]
  /** The agent commit's continuation index. */
  readonly continuation_roots: readonly ContinuationRoot[]
  /** Attempts the model saw that are not continued (docs/protocol.md §6.1). */
  readonly excluded_inactive?: readonly ExecutionIdentity[]
  /**
   * Generation-safe cuts: one record per frozen ticket of a continued rollout (omitted when none).
   */
  readonly generation_cuts?: readonly GenerationCutEntry[]
}

export interface LedgerCommitResult {
  readonly rollouts: number
  readonly rows: number
  readonly manifest_digest: string
  /** Token-store staging keys the continuations need (deduplicated, sorted by key). */
  readonly storage_references: readonly StorageReference[]
}

const sortIdentities = (ids: readonly ExecutionIdentity[]): ExecutionIdentity[] =>
  ids
    .map((id) => ({ rollout_id: id.rollout_id, attempt_index: id.attempt_index }))
    .sort(compareIdentity)

/**
 * Commits `model-ledger/<server_name>/` in schema 2 (docs/protocol.md §3.2 commit, §5.1): one
 * lineage JSONL per continued capture key, then the manifest. Refused with `ledger_mismatch` when a
 * rollout's rows belong to another capture key, lineage is not named by a continuation root, a root
 * names a tombstoned attempt, has no lineage, or does not match exactly one row with its model call
 * id and no failure; or when the namespace already holds another checkpoint or other inputs
 * ("changed before commit retry"). The storage references are the staging keys of each root's call
 * and its ancestors.
 */
export function commitLedgerNamespace(
  dir: CheckpointDirectory,
  digest: Digest,
  input: LedgerCommitInput,
): Result<LedgerCommitResult, DirectoryCommitError> {
  return runSteps(commitLedgerSteps(dir, digest, input))
}

/**
 * `commitLedgerNamespace` writing one bounded batch of lineage files per step
 * (`writeNamespaceSteps`).
 */
export function* commitLedgerSteps(
  dir: CheckpointDirectory,
  digest: Digest,
  input: LedgerCommitInput,
): Generator<void, Result<LedgerCommitResult, DirectoryCommitError>, void> {
  const code = 'ledger_mismatch'
  const fail = (message: string) => err(refusal(code, message))
  if (!ID_PATTERN.test(input.server_name))
    return fail(`invalid server name ${JSON.stringify(input.server_name)}`)
  const idProblem = checkCheckpointId(input.checkpoint_id)
  if (idProblem) return fail(idProblem)
  for (const id of [
    ...input.tombstones,
    ...input.source_attempts,
    ...(input.excluded_inactive ?? []),
  ]) {
    const checked = executionIdentitySchema.safeParse({
      rollout_id: id.rollout_id,
      attempt_index: id.attempt_index,
    })
    if (!checked.success) return fail(`invalid identity: ${describeZodError(checked.error)}`)
  }
  const byCallId = new Map<string, LineageRow>()
  for (const [capture, rows] of Object.entries(input.rollouts)) {
    if (!isSafeFileName(lineageFileName(capture)))
      return fail(`invalid capture key ${JSON.stringify(capture)}`)
    for (const row of rows) {
      const checked = lineageRowSchema.safeParse(row)
      if (!checked.success) return fail(`lineage ${capture}: ${describeZodError(checked.error)}`)
      if (captureKey(row) !== capture)
        return fail(
          `lineage row ${row.model_call_id} belongs to ${captureKey(row)}, not ${capture}`,
        )
      if (byCallId.has(row.model_call_id))
        return fail(`model call ${row.model_call_id} appears twice in the lineage`)
      byCallId.set(row.model_call_id, row)
    }
  }
  const tombstoned = new Set(input.tombstones.map(executionKey))
  const roots = [...input.continuation_roots].sort(compareIdentity)
  const named = new Set<string>()
  const references = new Map<string, StorageReference>()
  for (const root of roots) {
    const checked = continuationRootSchema.safeParse(root)
    if (!checked.success) return fail(`continuation root: ${describeZodError(checked.error)}`)
    if (root.capture_key !== captureKey(root))
      return fail(`root ${executionKey(root)} has capture key ${root.capture_key}`)
    if (tombstoned.has(executionKey(root)))
      return fail(`continuation root names tombstoned attempt ${executionKey(root)}`)
    const rows = input.rollouts[root.capture_key]
    if (rows === undefined) return fail(`continuation root ${root.capture_key} has no lineage`)
    named.add(root.capture_key)
    const matches = rows.filter(
      (r) => r.model_call_id === root.last_committed_model_call_id && r.failure_reason === null,
    )
    const match = matches[0]
    if (matches.length !== 1 || match === undefined) {
      return fail(
        `root ${root.capture_key} matches ${matches.length} committed rows for ${root.last_committed_model_call_id}`,
      )
    }
    // The continuation needs the staged tokens of the whole prefix: the root call and its
    // ancestors.
    const seen = new Set<string>()
    for (
      let row: LineageRow | undefined = match;
      row !== undefined && !seen.has(row.model_call_id);
    ) {
      seen.add(row.model_call_id)
      if (!references.has(row.staging_key)) {
        references.set(row.staging_key, {
          capture_key: root.capture_key,
          boundary_model_call_id: root.last_committed_model_call_id,
          kind: 'token_capture_staging',
          key: row.staging_key,
        })
      }
      row = row.parent_call_id === null ? undefined : byCallId.get(row.parent_call_id)
    }
  }
  for (const capture of Object.keys(input.rollouts)) {
    if (!named.has(capture))
      return fail(`lineage for ${capture} is not named by any continuation root`)
  }
  const captures = Object.keys(input.rollouts).sort()
  const rowsOf = (capture: string) => input.rollouts[capture] as readonly LineageRow[]
  const sizes: number[] = []
  const rowCount = captures.reduce((n, capture) => n + rowsOf(capture).length, 0)
  const storage_references = [...references.values()].sort((a, b) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
  )
  const manifestOf = (digests: readonly string[]): Uint8Array => {
    const rolloutsEntry: LedgerManifest['rollouts'] = {}
    for (const [i, capture] of captures.entries()) {
      rolloutsEntry[capture] = {
        files: { [lineageFileName(capture)]: digests[i] as string },
        rows: rowsOf(capture).length,
        bytes: sizes[i] as number,
      }
    }
    const manifest: LedgerManifest = {
      schema_version: LEDGER_SCHEMA_VERSION,
      checkpoint_id: input.checkpoint_id,
      server_name: input.server_name,
      rollouts: rolloutsEntry,
      tombstones: sortIdentities(input.tombstones),
      source_attempts: sortIdentities(input.source_attempts),
      excluded_inactive: sortIdentities(input.excluded_inactive ?? []),
      continuation_roots: roots.length,
      continuation_roots_sha256: continuationRootsDigest(digest, roots),
      storage_references,
      ...(input.generation_cuts === undefined || input.generation_cuts.length === 0
        ? {}
        : { generation_cuts: [...input.generation_cuts] }),
    }
    return encodeJsonFile(manifest)
  }
  const written = yield* writeNamespaceSteps(dir, digest, {
    code,
    checkpoint_id: input.checkpoint_id,
    manifestPath: ledgerManifestPath(input.server_name),
    files: {
      count: captures.length,
      file: (i): PendingFile => {
        const capture = captures[i] as string
        const bytes = encodeJsonLines(rowsOf(capture))
        sizes[i] = bytes.length
        return { path: ledgerLineagePath(input.server_name, capture), bytes }
      },
      manifest: manifestOf,
    },
    loadExisting: () => loadLedgerNamespace(dir, digest, input.server_name),
  })
  if (!written.ok) return written
  return ok({
    rollouts: captures.length,
    rows: rowCount,
    manifest_digest: written.value.manifest_digest,
    storage_references,
  })
}

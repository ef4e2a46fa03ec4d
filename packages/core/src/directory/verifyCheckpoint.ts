import type { Digest } from '../ports.ts'
import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import { createDirectoryView } from './DirectoryView.ts'
import type { DirectoryView } from './DirectoryView.ts'
import {
  AGENT_DIR,
  AGGREGATE_MANIFEST_PATH,
  CHECKPOINT_MARKER_PATH,
  MODEL_LEDGER_DIR,
  PARTICIPANT_NAMESPACES,
  RESOURCES_DIR,
  TOKEN_SEGMENTS_DIR,
  TOKEN_STORE_MANIFEST_PATH,
  ledgerManifestPath,
} from './layout.ts'
import { checkpointPublisher } from './checkpointPublisher.ts'
import { checkTokenSegments, restoredCutPrefixes } from './tokenSegments.ts'
import { checkAggregateFiles } from './loadAggregateManifest.ts'
import { checkpointMarkerSchema, tokenStoreManifestSchema } from './manifests.ts'
import { readManifest } from './namespaceChecks.ts'
import { readAggregateManifest } from './readAggregateManifest.ts'
import type { NamespaceOwner } from './participantNamespaces.ts'
import { loadParticipantNamespaceSteps } from './participantNamespaces.ts'
import type { CheckpointProblem, VerifyReport } from './problems.ts'
import { problem } from './problems.ts'
import { isSafeRelativePath } from './safePath.ts'
import type { VerifySteps } from './verifySteps.ts'
import { runSteps } from './verifySteps.ts'

/**
 * Verifies a whole checkpoint directory, as `cutover verify` does (docs/cli.md): the global
 * marker and the digests it names; the aggregate's schema, integrity and every listed file; every
 * participant namespace (schema, digests, unlisted files, identities); the agent ↔ resources
 * complete replacement set and revisions; continuation roots against each ledger; the token store
 * against the aggregate and the ledgers' storage references, and its segments against their
 * digests; one checkpoint id; no symlink and no file outside the layout anywhere. Never throws on a
 * damaged directory; problems sorted by path. A checkpoint the real NeMo-RL controller published
 * (`checkpointPublisher`) has no `checkpoint.json` and no token-store manifest: their absence is
 * no problem there, and everything else — every digest above all — is checked as always.
 */
export function verifyCheckpoint(dir: CheckpointDirectory, digest: Digest): VerifyReport {
  return runSteps(verifyCheckpointSteps(createDirectoryView(dir, digest)))
}

/**
 * The one verification of a checkpoint directory, over a view (`verifyCheckpoint`, and restore
 * before any participant restores: `loadPublishedSteps`), one bounded batch of a namespace's files
 * at a time. A view whose files were already read and hashed (restore's aggregate check) lends
 * their hashes; the namespaces' parse reads each file once more.
 */
export function* verifyCheckpointSteps(view: DirectoryView): VerifySteps<VerifyReport> {
  const problems: CheckpointProblem[] = []
  for (const entry of view.entries.values()) {
    if (entry.kind === 'symlink')
      problems.push(problem('symlink', entry.path, 'checkpoint directories hold no symlinks'))
  }

  const marker = readManifest(view, CHECKPOINT_MARKER_PATH, checkpointMarkerSchema)
  const aggregate = readAggregateManifest(view)
  const publisher = aggregate.ok ? checkpointPublisher(aggregate.manifest) : 'cutover'
  /** A manifest the publisher does not write, missing: no problem. */
  const unsealed = (read: { ok: false; problems: readonly CheckpointProblem[] }): boolean =>
    publisher === 'nemo-rl' && read.problems.every((p) => p.code === 'missing_manifest')
  if (!marker.ok) {
    if (!unsealed(marker)) problems.push(...marker.problems)
  } else {
    const named = [
      [marker.manifest.aggregate_manifest, AGGREGATE_MANIFEST_PATH],
      [marker.manifest.token_store_manifest, TOKEN_STORE_MANIFEST_PATH],
    ] as const
    for (const [artifact, expectedPath] of named) {
      if (!isSafeRelativePath(artifact.path)) {
        problems.push(
          problem(
            'path_escape',
            artifact.path,
            `${CHECKPOINT_MARKER_PATH} names a path outside the directory`,
          ),
        )
      } else if (artifact.path !== expectedPath) {
        problems.push(
          problem(
            'schema_error',
            CHECKPOINT_MARKER_PATH,
            `names ${artifact.path}, expected ${expectedPath}`,
          ),
        )
      } else {
        const actual = view.sha256(expectedPath)
        if (actual !== undefined && actual !== artifact.sha256) {
          problems.push(
            problem(
              'digest_mismatch',
              expectedPath,
              `sha256 ${actual} differs from ${artifact.sha256} in ${CHECKPOINT_MARKER_PATH}`,
            ),
          )
        }
      }
    }
  }

  let owners: readonly NamespaceOwner[]
  let checkpointId: string | undefined
  if (aggregate.ok) {
    owners = aggregate.manifest.participants
    checkpointId = aggregate.manifest.checkpoint_id
  } else {
    problems.push(...aggregate.problems)
    owners = discoverOwners(view)
    checkpointId = marker.ok ? marker.manifest.checkpoint_id : undefined
  }
  const known = new Set([
    CHECKPOINT_MARKER_PATH,
    AGGREGATE_MANIFEST_PATH,
    TOKEN_STORE_MANIFEST_PATH,
  ])
  for (const entry of view.entries.values()) {
    if (
      entry.kind === 'symlink' ||
      known.has(entry.path) ||
      entry.path.startsWith(`${TOKEN_SEGMENTS_DIR}/`)
    )
      continue
    if (PARTICIPANT_NAMESPACES.some((ns) => entry.path.startsWith(`${ns}/`))) continue
    problems.push(problem('unlisted_file', entry.path, 'not part of the checkpoint layout'))
  }

  const loaded = yield* loadParticipantNamespaceSteps(view, owners, checkpointId)
  problems.push(...loaded.problems.map((p) => p.problem))
  // After the namespaces: each of their files was read, hashed and released once, and the view
  // keeps the hashes, so the aggregate's check of every file reads none again (problems are sorted
  // below).
  if (aggregate.ok) problems.push(...checkAggregateFiles(view, aggregate.manifest))

  const tokenStore = readManifest(view, TOKEN_STORE_MANIFEST_PATH, tokenStoreManifestSchema)
  if (!tokenStore.ok) {
    if (!unsealed(tokenStore)) problems.push(...tokenStore.problems)
  } else {
    if (checkpointId !== undefined && tokenStore.manifest.checkpoint_id !== checkpointId) {
      problems.push(
        problem(
          'incomplete_set',
          TOKEN_STORE_MANIFEST_PATH,
          `holds checkpoint ${tokenStore.manifest.checkpoint_id}, not ${checkpointId}`,
        ),
      )
    }
    if (aggregate.ok && tokenStore.manifest.aggregate_manifest_sha256 !== aggregate.sha256) {
      problems.push(
        problem(
          'digest_mismatch',
          TOKEN_STORE_MANIFEST_PATH,
          'bound to another aggregate manifest',
        ),
      )
    }
    // Generation-safe cut prefixes: every listed segment present, its bytes matching its digest.
    problems.push(...checkTokenSegments(view, tokenStore.manifest).problems)
    const staged = new Set(tokenStore.manifest.staging_keys)
    for (const [name, ledger] of loaded.ledgers) {
      const prefixes = restoredCutPrefixes(view, ledger.manifest.generation_cuts ?? [])
      if (!prefixes.ok)
        problems.push(problem('segment_mismatch', ledgerManifestPath(name), prefixes.error.message))
      const missing = ledger.manifest.storage_references.filter((r) => !staged.has(r.key))
      if (missing.length > 0) {
        problems.push(
          problem(
            'incomplete_set',
            TOKEN_STORE_MANIFEST_PATH,
            `does not hold staging keys of ${name}: ${missing.map((r) => r.key).join(', ')}`,
          ),
        )
      }
    }
  }
  if (marker.ok && checkpointId !== undefined && marker.manifest.checkpoint_id !== checkpointId) {
    problems.push(
      problem(
        'incomplete_set',
        CHECKPOINT_MARKER_PATH,
        `names checkpoint ${marker.manifest.checkpoint_id}, not ${checkpointId}`,
      ),
    )
  }

  const unique = dedupe(problems).sort(
    (a, b) => compareText(a.path ?? '', b.path ?? '') || compareText(a.code, b.code),
  )
  return { valid: unique.length === 0, problems: unique, publisher }
}

/** Without an aggregate, the namespaces present on disk stand in for the participant list. */
function discoverOwners(view: DirectoryView): NamespaceOwner[] {
  const owners: NamespaceOwner[] = []
  if (view.below(AGENT_DIR).length > 0) owners.push({ kind: 'agent', name: 'agent' })
  const folders = (root: string) =>
    [
      ...new Set(
        view.below(root).map((e) => e.path.slice(root.length + 1).split('/')[0] as string),
      ),
    ].filter((name) => view.entries.get(`${root}/${name}`) === undefined)
  for (const name of folders(MODEL_LEDGER_DIR)) owners.push({ kind: 'policy_model', name })
  for (const name of folders(RESOURCES_DIR)) owners.push({ kind: 'resources', name })
  return owners
}

function dedupe(problems: readonly CheckpointProblem[]): CheckpointProblem[] {
  const seen = new Set<string>()
  return problems.filter((p) => {
    const key = `${p.code}\u0000${p.path ?? ''}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** Code-unit order: locale-independent, so reports are byte-identical everywhere. */
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

import type { Digest } from '../ports.ts'
import type { LineageRow } from '../records/LineageRow.ts'
import { captureKey } from '../records/ExecutionIdentity.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import type { DirectoryView } from './DirectoryView.ts'
import { createDirectoryView } from './DirectoryView.ts'
import { parseJsonLines } from './jsonFile.ts'
import { ledgerDir, ledgerManifestPath, lineageFileName } from './layout.ts'
import type { LedgerManifest } from './manifests.ts'
import { describeZodError, ledgerManifestSchema } from './manifests.ts'
import { checkListedFiles, readManifest } from './namespaceChecks.ts'
import type { CheckpointProblem, NamespaceLoadError } from './problems.ts'
import { directoryError, problem } from './problems.ts'
import type { VerifySteps } from './verifySteps.ts'
import { runSteps } from './verifySteps.ts'
import { lineageRowSchema } from '../records/LineageRow.ts'
import { validatedByDigest } from './validatedByDigest.ts'

/**
 * A lineage file's rows, each checked against the row schema; on failure the problem's message
 * and, when the JSON lines parsed, their count (the manifest's row count is checked before the
 * rows' schema).
 */
function parseLineageFile(
  bytes: Uint8Array,
):
  | { readonly ok: true; readonly rows: readonly LineageRow[] }
  | { readonly ok: false; readonly lines: number | null; readonly message: string } {
  const lines = parseJsonLines(bytes)
  if (!lines.ok) return { ok: false, lines: null, message: lines.error }
  const rows: LineageRow[] = []
  for (const [i, line] of lines.value.entries()) {
    const row = lineageRowSchema.safeParse(line)
    if (!row.success)
      return {
        ok: false,
        lines: lines.value.length,
        message: `row ${i + 1}: ${describeZodError(row.error)}`,
      }
    rows.push(row.data)
  }
  return { ok: true, rows }
}

/** A verified model-ledger namespace (schema 2). */
export interface LoadedLedgerNamespace {
  readonly manifest: LedgerManifest
  readonly manifest_digest: string
  /** Lineage rows by capture key, in file order. */
  readonly rollouts: Readonly<Record<string, readonly LineageRow[]>>
  readonly file_digests: Readonly<Record<string, string>>
}

/**
 * Loads and verifies `model-ledger/<server_name>/` (docs/protocol.md §5.1, schema 2): manifest
 * schema and server name, one `<capture_key>.lineage.jsonl` per rollout with its digest, row count
 * and byte count, every row's schema and capture key, unique storage reference keys. Refusal code
 * `ledger_mismatch`.
 */
export function loadLedgerNamespace(
  dir: CheckpointDirectory,
  digest: Digest,
  server_name: string,
): Result<LoadedLedgerNamespace, NamespaceLoadError> {
  return loadLedgerFromView(createDirectoryView(dir, digest), server_name)
}

/** `loadLedgerNamespace` over an existing view. */
export function loadLedgerFromView(
  view: DirectoryView,
  server_name: string,
): Result<LoadedLedgerNamespace, NamespaceLoadError> {
  return runSteps(loadLedgerSteps(view, server_name))
}

/** `loadLedgerFromView` one bounded batch of files at a time (`verifySteps`). */
export function* loadLedgerSteps(
  view: DirectoryView,
  server_name: string,
): VerifySteps<Result<LoadedLedgerNamespace, NamespaceLoadError>> {
  const manifestPath = ledgerManifestPath(server_name)
  const read = readManifest(view, manifestPath, ledgerManifestSchema)
  if (!read.ok) return err(directoryError('ledger_mismatch', read.problems))
  const manifest = read.manifest
  const problems: CheckpointProblem[] = []
  if (manifest.server_name !== server_name) {
    problems.push(
      problem(
        'schema_error',
        manifestPath,
        `server_name ${manifest.server_name} is not ${server_name}`,
      ),
    )
  }
  const files: Record<string, string> = {}
  const owner = new Map<string, { capture: string; rows: number; bytes: number }>()
  for (const [capture, entry] of Object.entries(manifest.rollouts)) {
    const names = Object.keys(entry.files)
    if (names.length !== 1 || names[0] !== lineageFileName(capture)) {
      problems.push(
        problem(
          'schema_error',
          manifestPath,
          `rollout ${capture} must list exactly ${lineageFileName(capture)}`,
        ),
      )
    }
    for (const name of names) {
      files[name] = entry.files[name] as string
      owner.set(name, { capture, rows: entry.rows, bytes: entry.bytes })
    }
  }
  const keys = manifest.storage_references.map((r) => r.key)
  if (new Set(keys).size !== keys.length)
    problems.push(problem('schema_error', manifestPath, 'duplicate storage reference keys'))
  const rollouts: Record<string, readonly LineageRow[]> = {}
  const file_digests: Record<string, string> = { [manifestPath]: read.sha256 }
  const fileProblems = yield* checkListedFiles(
    view,
    ledgerDir(server_name),
    manifestPath,
    files,
    (file) => {
      file_digests[file.path] = file.sha256
      const meta = owner.get(file.name)
      if (!meta) return undefined
      if (file.size !== meta.bytes)
        return problem('schema_error', file.path, `${file.size} bytes, manifest says ${meta.bytes}`)
      // The rows' parse depends on the bytes only: known bytes (read back after their commit,
      // checked by publish) are not parsed again.
      const parsed = validatedByDigest(parseLineageFile, file.sha256, () =>
        parseLineageFile(file.bytes),
      )
      if (!parsed.ok && parsed.lines === null)
        return problem('schema_error', file.path, parsed.message)
      const count = parsed.ok ? parsed.rows.length : parsed.lines
      if (count !== meta.rows)
        return problem('schema_error', file.path, `${count} rows, manifest says ${meta.rows}`)
      if (!parsed.ok) return problem('schema_error', file.path, parsed.message)
      const rows = parsed.rows
      for (const [i, row] of rows.entries()) {
        if (captureKey(row) !== meta.capture)
          return problem('schema_error', file.path, `row ${i + 1} belongs to ${captureKey(row)}`)
      }
      rollouts[meta.capture] = rows
      return undefined
    },
  )
  problems.push(...fileProblems)
  if (problems.length > 0) return err(directoryError('ledger_mismatch', problems))
  return ok({ manifest, manifest_digest: read.sha256, rollouts, file_digests })
}

import type { z } from 'zod'
import type { CheckpointProblem } from './problems.ts'
import { problem } from './problems.ts'
import type { DirectoryView } from './DirectoryView.ts'
import { describeZodError } from './manifests.ts'
import { parseJsonFile } from './jsonFile.ts'
import { isSafeFileName } from './safePath.ts'
import { validatedByDigest } from './validatedByDigest.ts'
import type { FileCheck, VerifySteps } from './verifySteps.ts'
import { verifySteps } from './verifySteps.ts'

/** A manifest read, parsed and validated, or the problems that stopped it. */
export type ManifestRead<T> =
  | { readonly ok: true; readonly manifest: T; readonly sha256: string }
  | { readonly ok: false; readonly problems: readonly CheckpointProblem[] }

/**
 * Reads one manifest: missing → `missing_manifest`, symlink → `symlink`, bad JSON/shape →
 * `schema_error`. `fast`, when given, returns the schema's output for a value its direct check
 * accepts (undefined otherwise, and the schema decides).
 */
export function readManifest<T>(
  view: DirectoryView,
  path: string,
  schema: z.ZodType<T>,
  fast?: (value: unknown) => T | undefined,
): ManifestRead<T> {
  const entry = view.entries.get(path)
  if (entry?.kind === 'symlink')
    return { ok: false, problems: [problem('symlink', path, 'manifest is a symlink')] }
  const bytes = entry ? view.read(path) : undefined
  if (bytes === undefined) {
    return {
      ok: false,
      problems: [problem('missing_manifest', path, 'manifest not found (torn or missing commit)')],
    }
  }
  const sha256 = view.sha256(path) as string
  return validatedByDigest(schema, sha256, (): ManifestRead<T> => {
    const parsed = parseJsonFile(bytes)
    if (!parsed.ok) return { ok: false, problems: [problem('schema_error', path, parsed.error)] }
    const direct = fast?.(parsed.value)
    if (direct !== undefined) return { ok: true, manifest: direct, sha256 }
    const checked = schema.safeParse(parsed.value)
    if (!checked.success)
      return {
        ok: false,
        problems: [problem('schema_error', path, describeZodError(checked.error))],
      }
    return { ok: true, manifest: checked.data, sha256 }
  })
}

/**
 * A listed file that exists and matches its digest. `bytes` is read when first asked (a parse that
 * `validatedByDigest` already knows needs none: a view whose hashes an earlier check took reads the
 * file no second time); `size` is the listing's.
 */
export interface CheckedFile {
  readonly name: string
  readonly path: string
  readonly sha256: string
  readonly size: number
  readonly bytes: Uint8Array
}

/**
 * Checks a namespace folder against its manifest's `files` map: every name a plain file name
 * (`path_escape`), present (`missing_file`), not a symlink (`symlink`), matching its digest
 * (`digest_mismatch`); and nothing else in the folder but the manifest (`unlisted_file`). Each file
 * that passes is handed to `each` (its parse and checks; a problem it returns is kept) and its
 * bytes are then released, so one file's bytes are held at a time. Yields after each bounded batch
 * (`verifySteps`). The problems: the listing's first, then those `each` returned, each in file
 * order.
 */
export function* checkListedFiles(
  view: DirectoryView,
  folder: string,
  manifestPath: string,
  files: Readonly<Record<string, string>>,
  each: (file: CheckedFile) => CheckpointProblem | undefined,
): VerifySteps<CheckpointProblem[]> {
  const problems: CheckpointProblem[] = []
  const found: CheckpointProblem[] = []
  const listed = new Set<string>()
  const check = (name: string): FileCheck => {
    const expected = files[name] as string
    const path = `${folder}/${name}`
    if (!isSafeFileName(name)) {
      problems.push(
        problem('path_escape', path, `manifest ${manifestPath} names a path outside its folder`),
      )
      return { bytes: 0, problem: true }
    }
    listed.add(path)
    const entry = view.entries.get(path)
    if (entry?.kind === 'symlink') {
      problems.push(problem('symlink', path, 'listed file is a symlink'))
      return { bytes: 0, problem: true }
    }
    const actual = entry ? view.sha256(path) : undefined
    if (actual === undefined) {
      problems.push(problem('missing_file', path, `listed in ${manifestPath} but not present`))
      return { bytes: 0, problem: true }
    }
    const size = entry?.bytes ?? 0
    if (actual !== expected) {
      view.release(path)
      problems.push(
        problem(
          'digest_mismatch',
          path,
          `sha256 ${actual} differs from ${expected} in ${manifestPath}`,
        ),
      )
      return { bytes: size, problem: true }
    }
    const bad = each({
      name,
      path,
      sha256: actual,
      size,
      get bytes() {
        return view.read(path) ?? new Uint8Array()
      },
    })
    view.release(path)
    if (bad !== undefined) found.push(bad)
    return { bytes: size, problem: bad !== undefined }
  }
  yield* verifySteps(folder, Object.keys(files).sort(), check)
  for (const entry of view.below(folder)) {
    if (entry.path === manifestPath || listed.has(entry.path)) continue
    if (entry.kind === 'symlink')
      problems.push(problem('symlink', entry.path, 'symlink inside a checkpoint namespace'))
    else problems.push(problem('unlisted_file', entry.path, `not listed in ${manifestPath}`))
  }
  return [...problems, ...found]
}

/** Parses a checked JSON record file against a schema, as a problem on failure. */
export function parseRecordFile<T>(
  file: CheckedFile,
  schema: z.ZodType<T>,
):
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problem: CheckpointProblem } {
  return validatedByDigest(
    schema,
    file.sha256,
    ():
      | { readonly ok: true; readonly value: T }
      | { readonly ok: false; readonly problem: CheckpointProblem } => {
      const parsed = parseJsonFile(file.bytes)
      if (!parsed.ok)
        return { ok: false, problem: problem('schema_error', file.path, parsed.error) }
      const checked = schema.safeParse(parsed.value)
      if (!checked.success)
        return {
          ok: false,
          problem: problem('schema_error', file.path, describeZodError(checked.error)),
        }
      return { ok: true, value: checked.data }
    },
  )
}

import type { CutoverError } from '../contracts/errors.ts'
import { cutoverError } from '../contracts/errors.ts'
import { canonicalJson } from '../json.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import type { TokenSegmentView } from '../contracts/generationCuts.ts'
import type { Digest } from '../ports.ts'
import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import type { DirectoryView } from './DirectoryView.ts'
import { createDirectoryView } from './DirectoryView.ts'
import { parseJsonFile } from './jsonFile.ts'
import { TOKEN_SEGMENTS_DIR, TOKEN_STORE_MANIFEST_PATH, tokenSegmentPath } from './layout.ts'
import type { GenerationCutEntry, TokenStoreManifest } from './manifests.ts'
import { tokenStoreManifestSchema } from './manifests.ts'
import { readManifest } from './namespaceChecks.ts'
import type { CheckpointProblem } from './problems.ts'
import { problem } from './problems.ts'

/** One listed segment as found on disk: its view, and its token ids when it verified. */
export interface SegmentCheck extends TokenSegmentView {
  /** The token ids, when the file is present, matches its digest and holds `token_count` ids. */
  readonly tokens: readonly number[] | null
}

/**
 * Checks the token-store segments `token-store/manifest.json` lists (docs/protocol.md §11): each
 * file at its layout path, present (`missing_file`), bytes matching the listed SHA-256 and a JSON
 * array of exactly `tokens` integer ids (`segment_mismatch`); a file under `token-store/segments/`
 * that is not listed is `unlisted_file`.
 */
export function checkTokenSegments(
  view: DirectoryView,
  manifest: TokenStoreManifest,
): { readonly problems: readonly CheckpointProblem[]; readonly segments: readonly SegmentCheck[] } {
  const problems: CheckpointProblem[] = []
  const segments: SegmentCheck[] = []
  const listed = manifest.segments ?? {}
  for (const path of Object.keys(listed).sort()) {
    const entry = listed[path] as NonNullable<TokenStoreManifest['segments']>[string]
    const base = {
      path,
      staging_key: entry.staging_key,
      model_call_id: entry.model_call_id,
      segment: entry.segment,
      token_count: entry.tokens,
      sha256: entry.sha256,
    }
    if (path !== tokenSegmentPath(entry.model_call_id, entry.segment)) {
      problems.push(
        problem(
          'schema_error',
          path,
          `segment of ${entry.model_call_id} must be at ${tokenSegmentPath(entry.model_call_id, entry.segment)}`,
        ),
      )
    }
    const bytes = view.read(path)
    if (bytes === undefined) {
      problems.push(
        problem(
          'missing_file',
          path,
          `segment ${entry.staging_key} is listed in token-store/manifest.json but missing`,
        ),
      )
      segments.push({ ...base, status: 'missing', tokens: null })
      continue
    }
    const actual = view.sha256(path)
    if (actual !== entry.sha256) {
      problems.push(
        problem(
          'segment_mismatch',
          path,
          `segment ${entry.staging_key}: sha256 ${actual ?? '?'} differs from ${entry.sha256} in token-store/manifest.json`,
        ),
      )
      segments.push({ ...base, status: 'digest_mismatch', tokens: null })
      continue
    }
    const tokens = parseTokens(bytes)
    if (tokens === null || tokens.length !== entry.tokens) {
      problems.push(
        problem(
          'segment_mismatch',
          path,
          `segment ${entry.staging_key} does not hold ${entry.tokens} token ids`,
        ),
      )
      segments.push({ ...base, status: 'digest_mismatch', tokens: null })
      continue
    }
    segments.push({ ...base, status: 'ok', tokens })
  }
  for (const e of view.below(TOKEN_SEGMENTS_DIR)) {
    if (e.kind === 'file' && listed[e.path] === undefined)
      problems.push(
        problem('unlisted_file', e.path, 'segment not listed in token-store/manifest.json'),
      )
  }
  return { problems, segments }
}

function parseTokens(bytes: Uint8Array): number[] | null {
  const parsed = parseJsonFile(bytes)
  if (!parsed.ok) return null
  const value = parsed.value
  return Array.isArray(value) && value.every((t) => Number.isInteger(t) && (t as number) >= 0)
    ? (value as number[])
    : null
}

/** The verified prefix of one restored `durable_prefix` cut. */
export interface RestoredPrefix {
  readonly entry: GenerationCutEntry
  readonly tokens: readonly number[]
}

/**
 * Restore's check of every segment a `durable_prefix` names, before anything is activated
 * (docs/protocol.md §11.5): listed and present (`restored_cut_segment_missing`), bytes matching the
 * listed digest, and its ids matching the record's count and `prefix_digest`
 * (`restored_cut_digest_mismatch`). The message names the segment file.
 */
export function restoredCutPrefixes(
  view: DirectoryView,
  cuts: readonly GenerationCutEntry[],
): Result<readonly RestoredPrefix[], CutoverError> {
  const durable = cuts.filter((c) => (c.staging_keys ?? []).length > 0)
  if (durable.length === 0) return ok([])
  const ts = readManifest(view, TOKEN_STORE_MANIFEST_PATH, tokenStoreManifestSchema)
  if (!ts.ok)
    return err(
      cutoverError(
        'restored_cut_segment_missing',
        `${TOKEN_STORE_MANIFEST_PATH} is unreadable, so no cut segment can be verified`,
      ),
    )
  const byKey = new Map(
    checkTokenSegments(view, ts.manifest).segments.map((s) => [s.staging_key, s]),
  )
  const out: RestoredPrefix[] = []
  for (const entry of durable) {
    const tokens: number[] = []
    for (const key of entry.staging_keys ?? []) {
      const seg = byKey.get(key)
      if (seg === undefined || seg.status === 'missing')
        return err(
          cutoverError(
            'restored_cut_segment_missing',
            `segment ${key} of ${entry.model_call_id} is missing${seg === undefined ? ' from token-store/manifest.json' : `: ${seg.path}`}`,
          ),
        )
      if (seg.tokens === null)
        return err(
          cutoverError(
            'restored_cut_digest_mismatch',
            `segment ${seg.path} of ${entry.model_call_id} does not match its digest`,
          ),
        )
      tokens.push(...seg.tokens)
    }
    if (
      tokens.length !== entry.prefix_token_count ||
      view.digest.sha256Hex(canonicalJson(tokens)) !== entry.prefix_digest
    )
      return err(
        cutoverError(
          'restored_cut_digest_mismatch',
          `the segments of ${entry.model_call_id} (${(entry.staging_keys ?? []).join(', ')}) do not match its prefix_token_count / prefix_digest`,
        ),
      )
    out.push({ entry, tokens })
  }
  return ok(out)
}

/**
 * The token-store segments of a checkpoint directory with their digest status (the Manifests tab).
 */
export function tokenSegmentViews(dir: CheckpointDirectory, digest: Digest): TokenSegmentView[] {
  return segmentViewsOf(createDirectoryView(dir, digest))
}

/** `tokenSegmentViews` over a directory view already open (the directory inspector's). */
export function segmentViewsOf(view: DirectoryView): TokenSegmentView[] {
  const ts = readManifest(view, TOKEN_STORE_MANIFEST_PATH, tokenStoreManifestSchema)
  if (!ts.ok) return []
  return checkTokenSegments(view, ts.manifest).segments.map(({ tokens: _tokens, ...s }) => s)
}

import type { CutoverError, ErrorCode } from '../contracts/errors.ts'

/** The problem codes of `cutover verify` (docs/cli.md). */
export const PROBLEM_CODES = [
  'missing_manifest',
  'missing_file',
  'unlisted_file',
  'digest_mismatch',
  'integrity_mismatch',
  'path_escape',
  'symlink',
  'schema_error',
  'incomplete_set',
  'revision_mismatch',
  // a token-store segment whose bytes or listed digest do not match (docs/protocol.md §11)
  'segment_mismatch',
] as const

export type ProblemCode = (typeof PROBLEM_CODES)[number]

/** One thing wrong with a checkpoint directory; `path` is relative to D, or null. */
export interface CheckpointProblem {
  readonly code: ProblemCode
  readonly path: string | null
  readonly message: string
}

/** The `cutover verify --json` object. */
export interface VerifyReport {
  readonly valid: boolean
  readonly problems: readonly CheckpointProblem[]
  /** Whose controller published it (`checkpointPublisher`; docs/real-stack.md). */
  readonly publisher: 'nemo-rl' | 'cutover'
}

/** A refused commit or load: a protocol error code plus the directory problems behind it. */
export interface DirectoryCommitError extends CutoverError {
  readonly problems: readonly CheckpointProblem[]
}

/** A namespace that failed validation on load (same shape as a refused commit). */
export type NamespaceLoadError = DirectoryCommitError

export const problem = (
  code: ProblemCode,
  path: string | null,
  message: string,
): CheckpointProblem => ({
  code,
  path,
  message,
})

/** Wraps problems into the participant's error; the message names the first problem. */
export function directoryError(
  code: ErrorCode,
  problems: readonly CheckpointProblem[],
): DirectoryCommitError {
  const first = problems[0]
  const head = first
    ? `${first.code} at ${first.path ?? 'D'}: ${first.message}`
    : 'invalid checkpoint directory'
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''
  return { code, message: `${head}${more}`, problems }
}

/** A refusal that is not about a file (changed inputs, wrong checkpoint id). */
export const refusal = (code: ErrorCode, message: string): DirectoryCommitError => ({
  code,
  message,
  problems: [],
})

/**
 * One bounded batch of a namespace's files read, hashed and checked: what a `directory.verify`
 * trace event reports. A long check (every file of a 10,000-rollout checkpoint) yields one of
 * these per batch, so its caller can end a step between batches (the controller traces each one);
 * a caller that wants the whole check at once runs it with `runSteps`.
 */
export interface VerifyProgress {
  /**
   * The namespace folder the batch belongs to, with a trailing slash (`agent/`,
   * `resources/counter/`).
   */
  readonly path: string
  /** Files in this batch. */
  readonly files: number
  /** Their bytes. */
  readonly bytes: number
  /** Files of this folder checked so far, this batch included. */
  readonly checked: number
  /** Files of this folder the check covers. */
  readonly total: number
  /** Problems found in this batch (the refusal that follows names them). */
  readonly problems: number
  /**
   * True for a batch of files an earlier batch of the same check already read and hashed (the
   * whole-directory verification after restore's aggregate check): a step ends on it, but a trace
   * names each file's check once.
   */
  readonly recheck?: true
}

/** A check that yields one `VerifyProgress` per bounded batch and returns its result. */
export type VerifySteps<T> = Generator<VerifyProgress, T, void>

/** At most this many files per batch… */
export const VERIFY_BATCH_FILES = 128
/** …and a batch ends once its files reach this many bytes (large lineage files). */
export const VERIFY_BATCH_BYTES = 512 * 1024

/** What checking one file found: its size (0 when absent) and whether it had a problem. */
export interface FileCheck {
  readonly bytes: number
  readonly problem: boolean
}

/**
 * Checks `items` (the files of one folder, in order) with `check`, one batch of at most
 * `VERIFY_BATCH_FILES` files or `VERIFY_BATCH_BYTES` bytes at a time, yielding after each batch.
 * Deterministic: the batches depend only on the files' count and sizes.
 */
export function* verifySteps<T>(
  path: string,
  items: readonly T[],
  check: (item: T) => FileCheck,
): VerifySteps<void> {
  const folder = path.endsWith('/') ? path : `${path}/`
  let files = 0
  let bytes = 0
  let problems = 0
  let checked = 0
  for (const item of items) {
    const r = check(item)
    files++
    checked++
    bytes += r.bytes
    if (r.problem) problems++
    if (files >= VERIFY_BATCH_FILES || bytes >= VERIFY_BATCH_BYTES) {
      yield { path: folder, files, bytes, checked, total: items.length, problems }
      files = 0
      bytes = 0
      problems = 0
    }
  }
  if (files > 0) yield { path: folder, files, bytes, checked, total: items.length, problems }
}

/**
 * Runs stepped work (a check, a namespace commit) to its end in one go (its progress is dropped).
 */
export function runSteps<T>(steps: Generator<unknown, T, void>): T {
  for (;;) {
    const next = steps.next()
    if (next.done === true) return next.value
  }
}

/** A result as stepped work with no steps (work done at once, where stepped work is expected). */
// eslint-disable-next-line require-yield
export function* noSteps<T>(value: T): Generator<never, T, void> {
  return value
}

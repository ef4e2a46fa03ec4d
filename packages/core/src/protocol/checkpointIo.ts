import type { CutoverError, ErrorCode } from '../contracts/errors.ts'
import { cutoverError } from '../contracts/errors.ts'
import type { CheckpointDirectory } from '../directory/CheckpointDirectory.ts'
import type { JsonValue } from '../json.ts'
import { canonicalJson } from '../json.ts'
import type { Digest } from '../ports.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import { utf8Decode, utf8Encode } from './utf8.ts'

/**
 * How a participant reaches the checkpoint directory: every write goes through `write` so the
 * simulator can trace it (manifest-last is visible) and the port can crash on its k-th write.
 */
export interface CheckpointSink {
  readonly digest: Digest
  /** Writes one file atomically; throws `DirectoryWriteError` when the injected crash fires. */
  write(path: string, data: Uint8Array): void
  read(path: string): Uint8Array | undefined
  list(): readonly string[]
}

/** A sink straight over a directory port (no tracing). */
export const directorySink = (dir: CheckpointDirectory, digest: Digest): CheckpointSink => ({
  digest,
  write: (path, data) => dir.writeFile(path, data),
  read: (path) => dir.readFile(path),
  list: () => dir.list().map((e) => e.path),
})

/** Canonical JSON bytes: the one form every checkpoint file is written in. */
export const jsonBytes = (value: unknown): Uint8Array => utf8Encode(canonicalJson(value) + '\n')

/** Writes canonical JSON and returns its SHA-256. */
export function writeJson(sink: CheckpointSink, path: string, value: unknown): string {
  const bytes = jsonBytes(value)
  sink.write(path, bytes)
  return sink.digest.sha256Hex(bytes)
}

/** Runs a commit body; a crashed directory write becomes the participant's checkpoint error. */
export function guardWrites<T>(code: ErrorCode, body: () => Result<T, CutoverError>): Result<T, CutoverError> {
  try {
    return body()
  } catch (e) {
    if (e instanceof Error && e.name === 'DirectoryWriteError') return err(cutoverError(code, `directory write failed: ${e.message}`))
    throw e
  }
}

/** Reads a JSON file and checks it against an expected digest (when given). */
export function readVerifiedJson(sink: CheckpointSink, path: string, sha256: string | null, code: ErrorCode): Result<JsonValue, CutoverError> {
  const bytes = sink.read(path)
  if (bytes === undefined) return err(cutoverError(code, `missing file ${path}`))
  if (sha256 !== null && sink.digest.sha256Hex(bytes) !== sha256) return err(cutoverError(code, `digest mismatch for ${path}`))
  try {
    return ok(JSON.parse(utf8Decode(bytes)) as JsonValue)
  } catch {
    return err(cutoverError(code, `malformed JSON in ${path}`))
  }
}

/** A JSON object's field as a plain record, or undefined. */
export const asRecord = (v: JsonValue | undefined): { readonly [k: string]: JsonValue } | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? v : undefined

import type { Digest } from '../ports.ts'
import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import { compareIdentity } from './continuationRoots.ts'
import { encodeJsonFile } from './jsonFile.ts'
import { executionFileName } from './layout.ts'
import type { PendingFile } from './writeNamespace.ts'

/** How a namespace with one JSON file per execution checks, places and names its items. */
export interface ExecutionFileRules<T> {
  /** Why `item` may not be written, or `undefined` when it may. */
  readonly invalid: (item: T) => string | undefined
  /** The item's path under D. */
  readonly pathOf: (item: T) => string
  /** How messages name one item (`record`) and a second item of one execution (`two snapshots for session`). */
  readonly noun: string
  readonly duplicate: string
}

/** The items in identity order, the manifest's `files` (file name → SHA-256) and the files to write. */
export interface ExecutionFiles<T> {
  readonly items: readonly T[]
  readonly files: Record<string, string>
  readonly dataFiles: readonly PendingFile[]
}

/**
 * Encodes one JSON file per execution (`<rollout_id>.a<attempt>.json`, the agent and resources
 * namespaces, PROTOCOL.md §5.2–5.3) in identity order, so the same items always give the same
 * manifest. An invalid item or two items of one execution is refused with a one-line message.
 */
export function executionFiles<T extends ExecutionIdentity>(
  items: readonly T[],
  digest: Digest,
  rules: ExecutionFileRules<T>,
): Result<ExecutionFiles<T>, string> {
  const sorted = [...items].sort(compareIdentity)
  const files: Record<string, string> = {}
  const dataFiles: PendingFile[] = []
  for (const item of sorted) {
    const name = executionFileName(item)
    const invalid = rules.invalid(item)
    if (invalid !== undefined) return err(`${rules.noun} ${name}: ${invalid}`)
    if (files[name] !== undefined) return err(`${rules.duplicate} ${name}`)
    const bytes = encodeJsonFile(item)
    files[name] = digest.sha256Hex(bytes)
    dataFiles.push({ path: rules.pathOf(item), bytes })
  }
  return ok({ items: sorted, files, dataFiles })
}

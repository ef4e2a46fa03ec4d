import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import { compareIdentity } from './continuationRoots.ts'
import { encodeJsonFile } from './jsonFile.ts'
import { executionFileName } from './layout.ts'
import type { NamespaceFiles, PendingFile } from './writeNamespace.ts'

/** How a namespace with one JSON file per execution checks, places and names its items. */
export interface ExecutionFileRules<T> {
  /** Why `item` may not be written, or `undefined` when it may. */
  readonly invalid: (item: T) => string | undefined
  /** The item's path under D. */
  readonly pathOf: (item: T) => string
  /**
   * How messages name one item (`record`) and a second item of one execution (`two snapshots for
   * session`).
   */
  readonly noun: string
  readonly duplicate: string
}

/**
 * The items in identity order, each item's file encoded when asked, and the manifest's `files` map.
 */
export interface ExecutionFiles<T> {
  readonly items: readonly T[]
  /** The file of `items[i]` (encoded now: a stepped commit encodes one batch at a time). */
  file(i: number): PendingFile
  /**
   * The items' files as a namespace to write, with the manifest `manifestOf` builds around its
   * `files` map.
   */
  namespace(manifestOf: (files: Record<string, string>) => Uint8Array): NamespaceFiles
}

/**
 * One JSON file per execution (`<rollout_id>.a<attempt>.json`, the agent and resources
 * namespaces, docs/protocol.md §5.2–5.3) in identity order, so the same items always give the same
 * manifest. Every item is checked first, so an invalid item or two items of one execution is
 * refused with a one-line message before any file is encoded or written.
 */
export function executionFiles<T extends ExecutionIdentity>(
  items: readonly T[],
  rules: ExecutionFileRules<T>,
): Result<ExecutionFiles<T>, string> {
  const sorted = [...items].sort(compareIdentity)
  const names: string[] = []
  const seen = new Set<string>()
  for (const item of sorted) {
    const name = executionFileName(item)
    const invalid = rules.invalid(item)
    if (invalid !== undefined) return err(`${rules.noun} ${name}: ${invalid}`)
    if (seen.has(name)) return err(`${rules.duplicate} ${name}`)
    seen.add(name)
    names.push(name)
  }
  const file = (i: number): PendingFile => {
    const item = sorted[i] as T
    return { path: rules.pathOf(item), bytes: encodeJsonFile(item) }
  }
  return ok({
    items: sorted,
    file,
    namespace(manifestOf) {
      return {
        count: sorted.length,
        file,
        manifest: (digests) => {
          const files: Record<string, string> = {}
          for (const [i, name] of names.entries()) files[name] = digests[i] as string
          return manifestOf(files)
        },
      }
    },
  })
}

import type { Fault } from './scenarios.ts'
import type { TraceMessage } from './trace.ts'

/** The namespaces a `corrupt_file` fault can name (docs/protocol.md §12.3). */
export const CORRUPTIBLE_NAMESPACES = ['resources', 'agent', 'model-ledger'] as const
export type CorruptibleNamespace = (typeof CORRUPTIBLE_NAMESPACES)[number]

/**
 * The token-store folder a `corrupt_segment` fault's `index` counts in
 * (docs/protocol.md §11.6).
 */
export const SEGMENTS_FOLDER = 'token-store/segments'

/**
 * A folder whose data files a corruption fault counts: a namespace, or the token store's segments.
 */
export type CorruptibleFolder = CorruptibleNamespace | typeof SEGMENTS_FOLDER

const isManifest = (path: string) => path === 'manifest.json' || path.endsWith('/manifest.json')

/**
 * The files a `corrupt_file` fault's `index` counts in one namespace of a checkpoint: its data
 * files, sorted, manifests excluded (for `token-store/segments`, the segment files). The simulator
 * picks `files[index % files.length]` of this list in the published directory; a reader of the
 * trace builds the same list from its writes.
 */
export function corruptibleFiles(paths: Iterable<string>, namespace: CorruptibleFolder): string[] {
  const files = new Set<string>()
  for (const path of paths)
    if (path.startsWith(`${namespace}/`) && !isManifest(path)) files.add(path)
  return [...files].sort()
}

/**
 * The faults that break the directory write at `step` of a run's trace, as the simulator counts
 * them: `crash_after_write` with `k` the number of this write among every `directory.write` of the
 * run (crashed ones too, from 1); and, for a data file of the run's first checkpoint (later ones
 * are never corrupted), `corrupt_file` with the file's index among that checkpoint's files, or
 * `corrupt_segment` with a token-store segment's index among its segments.
 */
export function directoryWriteFaults(events: readonly TraceMessage[], step: number): Fault[] {
  let k = 0
  let write: TraceMessage | undefined
  let first: string | undefined
  const written: string[] = []
  for (const e of events) {
    if (e.type !== 'directory.write') continue
    const checkpoint = e.payload['checkpoint_id']
    first ??= typeof checkpoint === 'string' ? checkpoint : undefined
    if (e.step <= step) k++
    if (e.step === step) write = e
    const path = e.payload['path']
    if (checkpoint === first && e.payload['crashed'] !== true && typeof path === 'string')
      written.push(path)
  }
  if (write === undefined) return []
  const faults: Fault[] = [{ kind: 'crash_after_write', k }]
  const path = write.payload['path']
  const namespace =
    typeof path === 'string'
      ? CORRUPTIBLE_NAMESPACES.find((n) => path.startsWith(`${n}/`))
      : undefined
  if (
    namespace !== undefined &&
    typeof path === 'string' &&
    write.payload['checkpoint_id'] === first &&
    write.payload['crashed'] !== true
  ) {
    const index = corruptibleFiles(written, namespace).indexOf(path)
    if (index >= 0) faults.push({ kind: 'corrupt_file', namespace, index })
  }
  if (
    typeof path === 'string' &&
    path.startsWith(`${SEGMENTS_FOLDER}/`) &&
    write.payload['checkpoint_id'] === first &&
    write.payload['crashed'] !== true
  ) {
    const index = corruptibleFiles(written, SEGMENTS_FOLDER).indexOf(path)
    if (index >= 0) faults.push({ kind: 'corrupt_segment', index })
  }
  return faults
}

import type { CheckpointDirectory } from './CheckpointDirectory.ts'
import type { PARTICIPANT_NAMESPACES } from './layout.ts'
import { MANIFEST_FILE } from './layout.ts'

/**
 * The data files of one participant namespace (`resources`, `agent`, `model-ledger`), sorted,
 * without manifests: what the `corrupt_file` fault's `index` counts (docs/protocol.md §12.3).
 */
export function listNamespaceFiles(
  dir: CheckpointDirectory,
  namespace: (typeof PARTICIPANT_NAMESPACES)[number],
): string[] {
  return dir
    .list()
    .filter(
      (e) =>
        e.kind === 'file' &&
        e.path.startsWith(`${namespace}/`) &&
        !e.path.endsWith(`/${MANIFEST_FILE}`),
    )
    .map((e) => e.path)
}

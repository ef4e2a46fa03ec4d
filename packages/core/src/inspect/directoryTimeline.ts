import type { DirectoryTimelineEntry } from '../contracts/directoryRun.ts'
import {
  AGENT_DIR,
  AGGREGATE_MANIFEST_PATH,
  CHECKPOINT_MARKER_PATH,
  MANIFEST_FILE,
  MODEL_LEDGER_DIR,
  RESOURCES_DIR,
  TOKEN_STORE_MANIFEST_PATH,
} from '../directory/layout.ts'
import type { NamespaceOwner } from '../directory/participantNamespaces.ts'

const namespaceFolder = (owner: NamespaceOwner): string =>
  owner.kind === 'agent'
    ? AGENT_DIR
    : `${owner.kind === 'policy_model' ? MODEL_LEDGER_DIR : RESOURCES_DIR}/${owner.name}`

/**
 * The directory's own timeline (there is no trace for a bare directory): its files in the order
 * the commit protocol writes them, as far as the directory itself tells it. Each namespace in the
 * participants' commit order (the aggregate's list, else agent → model ledgers → resources), its
 * data files in manifest order before its manifest; then the aggregate, the token store manifest
 * and the marker, written last. Files no manifest places come after, with `order` null. Pure.
 *
 * `listed` maps a namespace folder to the data file names its manifest lists (undefined when the
 * manifest is unreadable: the files on disk stand in, in name order).
 */
export function directoryTimeline(
  paths: readonly string[],
  owners: readonly NamespaceOwner[],
  listed: ReadonlyMap<string, readonly string[]>,
): DirectoryTimelineEntry[] {
  const present = new Set(paths)
  const placed = new Set<string>()
  const out: DirectoryTimelineEntry[] = []
  const push = (path: string, writer: string, note: string) => {
    if (placed.has(path)) return
    placed.add(path)
    out.push({
      order: out.length + 1,
      path,
      writer,
      note: present.has(path) ? note : `${note} — missing`,
    })
  }
  for (const owner of owners) {
    const folder = namespaceFolder(owner)
    const manifest = `${folder}/${MANIFEST_FILE}`
    const names =
      listed.get(folder) ??
      paths
        .filter((p) => p.startsWith(`${folder}/`) && p !== manifest)
        .map((p) => p.slice(folder.length + 1))
    for (const name of names) push(`${folder}/${name}`, folder, 'data file, before its manifest')
    push(manifest, folder, `${owner.kind} manifest: the namespace is committed once this lands`)
  }
  push(AGGREGATE_MANIFEST_PATH, 'aggregate', 'aggregate manifest, after every participant manifest')
  push(TOKEN_STORE_MANIFEST_PATH, 'token-store', 'token store snapshot, after the aggregate')
  push(CHECKPOINT_MARKER_PATH, 'marker', 'global marker, written last of all')
  for (const path of paths) {
    if (!placed.has(path))
      out.push({ order: null, path, writer: 'unknown', note: 'no manifest places this file' })
  }
  return out
}

import { corruptibleFiles } from '../contracts/faultTargets.ts'
import type { CheckpointDirectory } from '../directory/CheckpointDirectory.ts'
import type { Corruption } from './FaultPlan.ts'

/**
 * `corrupt_file` faults on a published checkpoint: for each, flips one byte in the middle of file
 * `index` (sorted, manifests excluded) of the namespace, then syncs so a later reader sees it.
 * Returns the damaged paths; `traced` reports each flip as it happens.
 */
export function corruptCheckpoint(
  dir: CheckpointDirectory,
  corruptions: readonly Corruption[],
  traced: (path: string, offset: number) => void,
): readonly string[] {
  dir.sync()
  const damaged: string[] = []
  for (const f of corruptions) {
    const files = corruptibleFiles(
      dir.list().map((e) => e.path),
      f.namespace,
    )
    const path = files[f.index % Math.max(1, files.length)]
    if (path === undefined) continue
    const bytes = dir.readFile(path)
    if (bytes === undefined || bytes.length === 0) continue
    const copy = bytes.slice()
    const at = Math.floor(copy.length / 2)
    copy[at] = (copy[at] as number) ^ 0x01
    dir.writeFile(path, copy)
    damaged.push(path)
    traced(path, at)
  }
  // The flipped bytes must reach the disk like any other write, or a later reader never sees them.
  if (damaged.length > 0) dir.sync()
  return damaged
}

import { lstatSync, readdirSync, realpathSync } from 'node:fs'
import { resolve, sep } from 'node:path'
import type { Result } from '@cutover/core'
import { err, notACheckpointReason, ok } from '@cutover/core'
import type { CutoverError } from '@cutover/core/contracts'
import { cutoverError } from '@cutover/core/contracts'

const realOrSelf = (path: string): string => {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

const within = (path: string, root: string): boolean =>
  path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)

/**
 * Resolves a directory path a user named (relative paths against `cwd`) to the real directory the
 * server may open read-only: `path_not_allowed` when it resolves — symlinks followed, `..` applied
 * — outside every allowed root; `not_a_checkpoint_directory` when nothing is there, it is not a
 * directory, or it holds none of a checkpoint directory's top-level entries. As in `cutover
 * verify`, the directory itself may be reached through a symlink; what lies below it is the
 * verifier's business (symlinks there are reported, never followed). Reads, never writes.
 */
export function resolveInspectPath(
  raw: string,
  roots: readonly string[],
  cwd: string = process.cwd(),
): Result<string, CutoverError> {
  if (raw.includes('\u0000'))
    return err(cutoverError('invalid_request', 'path contains a NUL byte'))
  const absolute = resolve(cwd, raw)
  const real = realOrSelf(absolute)
  const allowed = roots.map(realOrSelf)
  if (!allowed.some((root) => within(real, root))) {
    return err(
      cutoverError(
        'path_not_allowed',
        `${absolute}${real === absolute ? '' : ` (really ${real})`} is outside the directories this server may open (the data directory, CUTOVER_INSPECT_ROOTS and the directories named to cutover inspect): ${allowed.length === 0 ? 'none' : allowed.join(', ')}`,
      ),
    )
  }
  let names: string[]
  try {
    if (!lstatSync(real).isDirectory())
      return err(cutoverError('not_a_checkpoint_directory', `${absolute} is not a directory`))
    names = readdirSync(real)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return err(
      cutoverError(
        'not_a_checkpoint_directory',
        code === 'ENOENT'
          ? `no directory at ${absolute}`
          : `cannot read ${absolute}: ${code ?? String(error)}`,
      ),
    )
  }
  const reason = notACheckpointReason(names)
  if (reason !== null) {
    return err(
      cutoverError(
        'not_a_checkpoint_directory',
        `${absolute} does not look like a checkpoint directory: ${reason}`,
      ),
    )
  }
  return ok(real)
}

import { existsSync, lstatSync, realpathSync } from 'node:fs'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { Result } from '@cutover/core'
import { err, ok } from '@cutover/core'
import type { CutoverError } from '@cutover/core/contracts'
import { cutoverError } from '@cutover/core/contracts'

/** The path below `root` that `target` names, or null when it is `root` itself or outside it. */
function below(root: string, target: string): string | null {
  const inside = relative(root, target)
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside))
    return null
  return inside
}

/** A root as given and as the file system resolves it (a root may itself be a symlink). */
function spellings(root: string): string[] {
  const given = resolve(root)
  const real = existsSync(given) ? realpathSync(given) : given
  return real === given ? [given] : [real, given]
}

/**
 * Resolves a control request's `checkpoint_dir` and checks it lies strictly inside one of the
 * participant's checkpoint roots with no symlink on the way below that root: a controller may only
 * make this process write or read there. A relative path is taken relative to the data directory;
 * an absolute one — the real NeMo-RL controller's, and Cutover's own — may name any directory
 * under a root. `roots` are `CUTOVER_CHECKPOINT_ROOTS` (`checkpointRootsFromEnv`); by default the
 * data directory alone. Refusals are `path_escape`.
 */
export function checkpointDirUnder(
  dataDir: string,
  requested: string,
  roots: readonly string[] = [dataDir],
): Result<string, CutoverError> {
  if (requested.includes('\u0000'))
    return err(cutoverError('path_escape', 'checkpoint_dir contains a NUL byte'))
  const base = spellings(dataDir)[0] as string
  const target = resolve(base, requested)
  for (const root of roots.flatMap(spellings)) {
    const inside = below(root, target)
    if (inside === null) continue
    let current = root
    for (const segment of inside.split(sep)) {
      current = join(current, segment)
      if (!existsSync(current)) break
      if (lstatSync(current).isSymbolicLink())
        return err(
          cutoverError(
            'path_escape',
            `checkpoint_dir passes through the symlink ${relative(root, current)} below its checkpoint root`,
          ),
        )
    }
    return ok(target)
  }
  const where =
    roots.length === 1 && resolve(roots[0] as string) === resolve(dataDir)
      ? 'the data directory'
      : 'a checkpoint root (CUTOVER_CHECKPOINT_ROOTS)'
  return err(
    cutoverError(
      'path_escape',
      `checkpoint_dir ${JSON.stringify(requested)} must lie inside ${where}`,
    ),
  )
}

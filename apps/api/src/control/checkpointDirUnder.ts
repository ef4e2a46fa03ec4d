import { existsSync, lstatSync, realpathSync } from 'node:fs'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { Result } from '@cutover/core'
import { err, ok } from '@cutover/core'
import type { CutoverError } from '@cutover/core/contracts'
import { cutoverError } from '@cutover/core/contracts'

/**
 * Resolves a control request's `checkpoint_dir` (absolute, or relative to the data directory) and
 * checks it lies strictly inside the data directory with no symlink on the way: a controller may
 * only make this process write or read its own data directory. Refusals are `path_escape`.
 */
export function checkpointDirUnder(
  dataDir: string,
  requested: string,
): Result<string, CutoverError> {
  if (requested.includes('\u0000'))
    return err(cutoverError('path_escape', 'checkpoint_dir contains a NUL byte'))
  const root = existsSync(dataDir) ? realpathSync(dataDir) : resolve(dataDir)
  const target = resolve(root, requested)
  const inside = relative(root, target)
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    return err(
      cutoverError(
        'path_escape',
        `checkpoint_dir ${JSON.stringify(requested)} must lie inside the data directory`,
      ),
    )
  }
  let current = root
  for (const segment of inside.split(sep)) {
    current = join(current, segment)
    if (!existsSync(current)) break
    if (lstatSync(current).isSymbolicLink())
      return err(
        cutoverError(
          'path_escape',
          `checkpoint_dir passes through the symlink ${relative(root, current)} in the data directory`,
        ),
      )
  }
  return ok(target)
}

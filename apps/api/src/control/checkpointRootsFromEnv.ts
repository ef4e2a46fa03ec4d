import { isAbsolute, resolve } from 'node:path'
import { UsageError } from '../process/io.ts'

/** The variable naming where participants accept a controller's `checkpoint_dir`. */
export const CHECKPOINT_ROOTS_ENV = 'CUTOVER_CHECKPOINT_ROOTS'

/**
 * The checkpoint roots of a participant process (docs/real-stack.md): the `:`-separated absolute
 * paths of `CUTOVER_CHECKPOINT_ROOTS`, or the data directory alone when it is unset or empty. A
 * relative entry is a usage error (exit 2): a root must not depend on the working directory.
 */
export function checkpointRootsFromEnv(
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
): readonly string[] {
  const raw = env[CHECKPOINT_ROOTS_ENV]
  if (raw === undefined || raw.trim() === '') return [dataDir]
  const roots = raw.split(':').filter((p) => p !== '')
  const relative = roots.filter((p) => !isAbsolute(p))
  if (relative.length > 0)
    throw new UsageError(
      `${CHECKPOINT_ROOTS_ENV} holds absolute paths only (relative: ${relative.join(', ')})`,
    )
  return roots.map((p) => resolve(p))
}

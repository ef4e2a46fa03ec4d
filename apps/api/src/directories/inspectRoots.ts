import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'

/** The file in the data directory where `cutover inspect` records the directories it was named. */
export const INSPECT_ROOTS_FILE = 'inspect-roots.txt'

/**
 * The directories the server may open read-only (docs/security.md): the data directory, every
 * absolute path in `CUTOVER_INSPECT_ROOTS` (`:`-separated), and every directory named to
 * `cutover inspect` or by an accepted commit or restore of a recording (one absolute path a line
 * in `<data>/inspect-roots.txt`). Read on each call, so
 * a `cutover inspect` against a running server takes effect without a restart.
 */
export function inspectRoots(dataDir: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const roots = [resolve(dataDir)]
  for (const entry of (env['CUTOVER_INSPECT_ROOTS'] ?? '').split(':')) {
    if (entry !== '' && isAbsolute(entry)) roots.push(resolve(entry))
  }
  const file = join(dataDir, INSPECT_ROOTS_FILE)
  if (existsSync(file)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line !== '' && isAbsolute(line)) roots.push(resolve(line))
    }
  }
  return [...new Set(roots)]
}

/**
 * Adds a directory to the data directory's list of directories the server may open (once): named
 * to `cutover inspect`, or named by an accepted commit or restore a recording saw.
 */
export function addInspectRoot(dataDir: string, dir: string): void {
  const file = join(dataDir, INSPECT_ROOTS_FILE)
  const known = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : []
  if (known.includes(dir)) return
  mkdirSync(dataDir, { recursive: true })
  appendFileSync(file, `${dir}\n`)
}

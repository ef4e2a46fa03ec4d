import { homedir } from 'node:os'
import { sep } from 'node:path'

/**
 * Rewrites the server's own absolute paths in text meant for a client (an error message, a failed
 * run's reason): paths inside the data directory become relative to it, the data directory itself
 * `the data directory`, and the rest of the home directory `~`. Clients never learn where the
 * server keeps its files (docs/security.md).
 */
export function hideLocalPaths(text: string, dataDir: string, home: string = homedir()): string {
  let out = text.replaceAll(`${dataDir}${sep}`, '').replaceAll(dataDir, 'the data directory')
  if (home.length > 1) out = out.replaceAll(home, '~')
  return out
}

import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { dirname } from 'node:path'

/**
 * Removes a bench temp folder and, on Linux, flushes its file system (`sync --file-system`), so
 * the metadata of the removal (tens of thousands of unlinks at 10,000 rollouts) is not left for the
 * next timed measurement's own `syncfs` to pay for. Outside every timed region.
 */
export function removeSettled(folder: string): void {
  rmSync(folder, { recursive: true, force: true })
  if (process.platform === 'linux')
    spawnSync('sync', ['--file-system', dirname(folder)], { stdio: 'ignore' })
}

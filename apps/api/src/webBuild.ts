import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { REPO_ROOT, WEB_DIST, WEB_ROOT } from './repoPaths.ts'

/** The newest modification time under `dir` (files only), or 0. */
function newestMtime(dir: string): number {
  if (!existsSync(dir)) return 0
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs)
  }
  return newest
}

/** True when the web build is missing or older than any web or contracts source. */
export function webBuildIsStale(): boolean {
  const index = join(WEB_DIST, 'index.html')
  if (!existsSync(index)) return true
  const built = statSync(index).mtimeMs
  const sources = Math.max(
    newestMtime(WEB_ROOT),
    newestMtime(join(REPO_ROOT, 'packages/core/src/contracts')),
    statSync(join(REPO_ROOT, 'vite.config.ts')).mtimeMs,
  )
  return sources > built
}

/** Builds the web app with vite when its build is missing or stale. Throws when the build fails. */
export function ensureWebBuild(log: (line: string) => void): void {
  if (!webBuildIsStale()) return
  log('building the web app (vite build)…')
  const vite = join(REPO_ROOT, 'node_modules/.bin/vite')
  const result = spawnSync(vite, ['build', '--logLevel', 'warn'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  })
  if (result.status !== 0)
    throw new Error(`vite build failed (exit ${result.status ?? result.signal})`)
}

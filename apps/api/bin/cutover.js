#!/usr/bin/env node
// Launches the TypeScript CLI through tsx so `npx cutover` works after a plain `npm ci` on Node 20.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const tsxCli = require.resolve('tsx/cli')
const entry = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url))
const child = spawnSync(process.execPath, [tsxCli, entry, ...process.argv.slice(2)], { stdio: 'inherit' })
if (child.error) {
  process.stderr.write(`cutover: ${child.error.message}\n`)
  process.exit(2)
}
process.exit(child.status ?? (child.signal ? 1 : 0))

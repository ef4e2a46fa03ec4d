// `npm run docs:cli`: writes docs/cli.md from the commands' own --help
// (apps/api/src/cli/cliReference.ts). With --check, exits 1 when docs/cli.md is stale instead.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { cliReferenceMarkdown } from '../apps/api/src/cli/cliReference.ts'

const path = fileURLToPath(new URL('../docs/cli.md', import.meta.url))
const text = await cliReferenceMarkdown()
if (process.argv.includes('--check')) {
  const current = readFileSync(path, 'utf8')
  if (current !== text) {
    console.error('docs/cli.md is stale: run `npm run docs:cli`')
    process.exit(1)
  }
} else writeFileSync(path, text)

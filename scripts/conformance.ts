// `npm run conformance`: the docs/protocol.md rule → test index (issue #12). Reads the rule table
// (packages/core/src/conformance/specRules.ts) and the names of every test (`it`/`test` titles in
// the test files), counts the tests naming each rule as `[<rule id>]`, prints the table and exits 1
// when a modelled rule has no test, a test names an unknown rule id, or SPEC_RULES.md is stale.
// `--write` regenerates packages/core/SPEC_RULES.md.
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SPEC_RULES } from '../packages/core/src/conformance/specRules.ts'
import type { SpecRule } from '../packages/core/src/conformance/specRules.ts'

const repo = fileURLToPath(new URL('..', import.meta.url))
const MD_PATH = join(repo, 'packages/core/SPEC_RULES.md')
const TEST_ROOTS = ['packages', 'apps', 'scripts', 'e2e']
const TEST_FILE = /\.(test|spec)\.(ts|tsx)$/

function testFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue
    const path = join(dir, name)
    if (statSync(path).isDirectory()) testFiles(path, out)
    else if (TEST_FILE.test(name)) out.push(path)
  }
  return out
}

/**
 * Titles of the tests a file declares (`it(...)` / `test(...)`, skipped and todo tests left out).
 */
function testTitles(source: string): string[] {
  const titles: string[] = []
  const call =
    /\b(?:it|test)(\.(?:only|concurrent|fails|skip|todo))?\s*\(\s*(['"`])((?:\\.|(?!\2)[\s\S])*?)\2/g
  for (const m of source.matchAll(call))
    if (m[1] !== '.skip' && m[1] !== '.todo') titles.push(m[3] ?? '')
  return titles
}

const ruleIds = new Set(SPEC_RULES.map((r) => r.id))
const counts = new Map<string, number>(SPEC_RULES.map((r) => [r.id, 0]))
const unknown: string[] = []
for (const file of TEST_ROOTS.flatMap((root) => testFiles(join(repo, root)))) {
  for (const title of testTitles(readFileSync(file, 'utf8'))) {
    for (const tag of title.matchAll(/\[([a-z0-9-]+\.[a-z0-9.-]+)\]/g)) {
      const id = tag[1] as string
      if (ruleIds.has(id)) counts.set(id, (counts.get(id) ?? 0) + 1)
      else unknown.push(`${relative(repo, file)}: [${id}] is not a rule id`)
    }
  }
}

const statusOf = (r: SpecRule): string =>
  r.notModelled !== undefined ? 'not modelled' : (counts.get(r.id) ?? 0) > 0 ? 'tested' : 'NO TEST'

/** The generated rule list (SPEC_RULES.md). */
function markdown(): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|')
  const lines = [
    '# Protocol conformance index',
    '',
    'Generated from `packages/core/src/conformance/specRules.ts` by `npm run conformance -- --write`; do not edit by hand.',
    'Every rule of docs/protocol.md §3, §4 and §6 and every row of its §8 has a stable id; a source `§N` is',
    'a section of docs/protocol.md, any other source names its doc. A test covers a rule by naming it as',
    '`[<id>]` in its title; `npm run conformance` counts those tests and fails when a modelled rule has none.',
    '',
    '| Rule | Sources | Rule text | Not modelled because |',
    '|---|---|---|---|',
    ...SPEC_RULES.map(
      (r: SpecRule) =>
        `| \`${r.id}\` | ${esc(r.sources.join(', '))} | ${esc(r.rule)} | ${esc(r.notModelled ?? '')} |`,
    ),
    '',
  ]
  return lines.join('\n')
}

const problems: string[] = []
const seen = new Set<string>()
for (const r of SPEC_RULES) {
  if (seen.has(r.id)) problems.push(`duplicate rule id ${r.id}`)
  seen.add(r.id)
}
problems.push(...unknown)
if (process.argv.includes('--write')) writeFileSync(MD_PATH, markdown())
else {
  let current = ''
  try {
    current = readFileSync(MD_PATH, 'utf8')
  } catch {
    current = ''
  }
  if (current !== markdown())
    problems.push('packages/core/SPEC_RULES.md is stale: run `npm run conformance -- --write`')
}

const width = Math.max(...SPEC_RULES.map((r) => r.id.length))
console.log(`${'rule'.padEnd(width)}  tests  status`)
for (const r of SPEC_RULES)
  console.log(`${r.id.padEnd(width)}  ${String(counts.get(r.id) ?? 0).padStart(5)}  ${statusOf(r)}`)
const untested = SPEC_RULES.filter((r) => statusOf(r) === 'NO TEST')
const notModelled = SPEC_RULES.filter((r) => r.notModelled !== undefined).length
console.log(
  `\n${SPEC_RULES.length} rules: ${SPEC_RULES.length - notModelled - untested.length} tested, ${notModelled} not modelled, ${untested.length} without a test`,
)
for (const r of untested) problems.push(`${r.id} has no test naming it`)
for (const p of problems) console.error(`conformance: ${p}`)
process.exit(problems.length > 0 ? 1 : 0)

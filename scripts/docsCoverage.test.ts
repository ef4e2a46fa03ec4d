import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { SPEC_RULES } from '../packages/core/src/conformance/specRules.ts'
import {
  BUG_NAMES,
  ERROR_CODES,
  FAULT_KINDS,
  INVARIANT_IDS,
  SCENARIO_NAMES,
} from '../packages/core/src/contracts/index.ts'

const page = readFileSync(new URL('../docs/protocol.md', import.meta.url), 'utf8')

/**
 * The page cut at its numbered headings (`## 3. Operations`, `### 3.5 The controller`): section
 * number → its text, a section's text holding its subsections' (`3` holds `3.1` … `3.7`).
 */
function sections(markdown: string): Map<string, string> {
  const out = new Map<string, string>()
  const open: { number: string; depth: number; lines: string[] }[] = []
  for (const line of markdown.split('\n')) {
    const heading = /^(#{2,4}) (\d+(?:\.\d+)*)\.? /.exec(line)
    const depth = heading?.[1]?.length ?? /^(#{1,4}) /.exec(line)?.[1]?.length
    if (depth !== undefined)
      while (open.length > 0 && (open.at(-1)?.depth ?? 0) >= depth) {
        const done = open.pop()
        if (done !== undefined) out.set(done.number, done.lines.join('\n'))
      }
    if (heading !== null && depth !== undefined)
      open.push({ number: heading[2] as string, depth, lines: [] })
    for (const s of open) s.lines.push(line)
  }
  for (const done of open) out.set(done.number, done.lines.join('\n'))
  return out
}

/**
 * The sections of this page a rule's sources name: `§3.1` and `§8 <row>` are this page's numbers;
 * a source naming another page (`docs/real-stack.md`) names no section here.
 */
function namedSections(sources: readonly string[]): string[] {
  return sources
    .filter((s) => !s.includes('.md'))
    .map((s) => /^§(\d+(?:\.\d+)?)/.exec(s)?.[1])
    .filter((n): n is string => n !== undefined)
}

const mentions = (text: string, name: string): boolean => text.includes(`\`${name}\``)

describe('docs/protocol.md', () => {
  const bySection = sections(page)

  it('[docs] has the numbered sections of the docs plan, §1–§12 and a glossary', () => {
    const wanted = [
      ...['1.1', '1.2', '1.3', '2.1', '2.2', '2.3', '2.4'],
      ...['3.1', '3.2', '3.3', '3.4', '3.5', '3.6', '3.7'],
      ...['4.1', '4.2', '4.3', '4.4', '4.5', '4.6'],
      ...[
        '5.1',
        '5.2',
        '5.3',
        '5.4',
        '5.5',
        '5.6',
        '6.1',
        '6.2',
        '6.3',
        '6.4',
        '7.1',
        '7.2',
        '7.3',
      ],
      ...['8', '8.1', '9', '10', '11', '12', '12.1', '12.2', '12.3', '12.4', '12.5'],
      ...['11.1', '11.2', '11.3', '11.4', '11.5', '11.6'],
    ]
    expect(wanted.filter((n) => !bySection.has(n))).toEqual([])
    expect(page).toMatch(/^## Glossary$/m)
  })

  it('[docs] names every rule id of npm run conformance in a section its sources name', () => {
    const missing = SPEC_RULES.filter((r) => {
      const named = namedSections(r.sources)
      if (named.length === 0) return !mentions(page, r.id)
      return !named.some((n) => mentions(bySection.get(n) ?? '', r.id))
    }).map((r) => `${r.id} (${r.sources.join(', ')})`)
    expect(missing).toEqual([])
  })

  it('[docs] lists every error code in the §8.1 table', () => {
    const table = bySection.get('8.1') ?? ''
    expect(ERROR_CODES.filter((code) => !mentions(table, code))).toEqual([])
  })

  it('[docs] names every scenario, fault kind, invariant and teaching bug', () => {
    const names = [...SCENARIO_NAMES, ...FAULT_KINDS, ...INVARIANT_IDS, ...BUG_NAMES]
    expect(names.filter((name) => !mentions(page, name))).toEqual([])
  })
})

// Every reference a reader of the README or of docs/ follows must lead somewhere: a relative link
// or image to a file of the repository, an `#anchor` to a heading of its page, and a
// `<page>.md §N` reference to a heading that carries that number (`### 3.5 The controller`).
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const REPO = resolve(new URL('..', import.meta.url).pathname)

/** The pages checked: the README and every page of docs/. */
const PAGES = [
  'README.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
]

/** A page's lines with fenced code blocks blanked (links there are text, not links). */
function proseLines(text: string): string[] {
  let fence: string | null = null
  return text.split('\n').map((line) => {
    const open = /^\s*(```+|~~~+)/.exec(line)
    if (fence === null && open !== null) {
      fence = open[1] as string
      return ''
    }
    if (fence !== null) {
      if (line.trim().startsWith(fence)) fence = null
      return ''
    }
    // inline code is text too
    return line.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length))
  })
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

interface Heading {
  /** The heading's text, markdown markers and backticks as written. */
  readonly text: string
  readonly slug: string
}

/** The ATX headings of a page outside code blocks, with GitHub's slugs (repeats get `-1`, …). */
export function headingsOf(text: string): Heading[] {
  const seen = new Map<string, number>()
  const out: Heading[] = []
  let fence: string | null = null
  for (const line of text.split('\n')) {
    const open = /^\s*(```+|~~~+)/.exec(line)
    if (fence === null && open !== null) fence = open[1] as string
    else if (fence !== null) {
      if (line.trim().startsWith(fence)) fence = null
    } else {
      const match = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
      if (match === null) continue
      const heading = match[1] as string
      const base = headingSlug(heading)
      const count = seen.get(base) ?? 0
      seen.set(base, count + 1)
      out.push({ text: heading, slug: count === 0 ? base : `${base}-${count}` })
    }
  }
  return out
}

/** True when a heading carries section number `n` as its text (`3.5 …`, `3. …`). */
export function headingHasNumber(heading: string, n: string): boolean {
  const text = heading.replace(/`/g, '').trim()
  if (!text.startsWith(n)) return false
  const rest = text.slice(n.length)
  return rest === '' || rest === '.' || /^\.?\s/.test(rest)
}

/** A page's links and images: `[text](target)`, `![alt](target)` and `[ref]: target`. */
export function linkTargets(text: string): { line: number; target: string }[] {
  const out: { line: number; target: string }[] = []
  proseLines(text).forEach((line, i) => {
    for (const m of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      out.push({ line: i + 1, target: m[1] as string })
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line)
    if (definition !== null) out.push({ line: i + 1, target: definition[1] as string })
  })
  return out
}

/**
 * A page's `<page>.md §N` references, in prose and in code blocks alike (a command's help text,
 * quoted in docs/cli.md, is read as documentation too).
 */
export function sectionRefs(text: string): { line: number; page: string; section: string }[] {
  const out: { line: number; page: string; section: string }[] = []
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/([A-Za-z0-9_./-]+\.md)`?\)?\]?\s*§\s*(\d+(?:\.\d+)*)/g))
      out.push({ line: i + 1, page: m[1] as string, section: m[2] as string })
  })
  return out
}

const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target)

/** Where a `<page>.md` named in the text of `from` is: beside it, under docs/, or from the root. */
function resolvePage(from: string, page: string): string | undefined {
  const candidates = [join(dirname(from), page), join('docs', page), page]
  return candidates.find((c) => existsSync(join(REPO, c)))
}

const headingCache = new Map<string, Heading[]>()
function headingsOfFile(path: string): Heading[] {
  let headings = headingCache.get(path)
  if (headings === undefined) {
    headings = headingsOf(readFileSync(join(REPO, path), 'utf8'))
    headingCache.set(path, headings)
  }
  return headings
}

/** Every broken reference of one page, one line each (`<page>:12: …`). */
function brokenReferences(page: string): string[] {
  const text = readFileSync(join(REPO, page), 'utf8')
  const problems: string[] = []
  for (const { line, target } of linkTargets(text)) {
    if (isExternal(target)) continue
    const hash = target.indexOf('#')
    const pathPart = decodeURI(hash < 0 ? target : target.slice(0, hash))
    const anchor = hash < 0 ? undefined : target.slice(hash + 1)
    const file = pathPart === '' ? page : relative(REPO, resolve(REPO, dirname(page), pathPart))
    if (file.startsWith('..') || !existsSync(join(REPO, file))) {
      problems.push(`${page}:${line}: ${target} — no file ${file}`)
      continue
    }
    if (anchor === undefined || anchor === '' || !file.endsWith('.md')) continue
    if (!headingsOfFile(file).some((h) => h.slug === decodeURIComponent(anchor)))
      problems.push(`${page}:${line}: ${target} — ${file} has no heading #${anchor}`)
  }
  for (const { line, page: named, section } of sectionRefs(text)) {
    const file = resolvePage(page, named)
    if (file === undefined) {
      problems.push(`${page}:${line}: ${named} §${section} — no file ${named} in the repository`)
      continue
    }
    if (!headingsOfFile(file).some((h) => headingHasNumber(h.text, section)))
      problems.push(
        `${page}:${line}: ${named} §${section} — ${file} has no heading numbered ${section}`,
      )
  }
  return problems
}

describe('[docs] links of the README and docs/', () => {
  it('[docs] the checker reads headings, slugs, numbers, links and § references as GitHub does', () => {
    const page = [
      '# Title',
      '## 3. Operations',
      '### 3.5 The `controller`',
      '## cutover serve',
      '## cutover serve',
      '```',
      '## not a heading [x](nowhere.md)',
      '```',
      'See [a](other.md#x) and ![b](screenshots/b.png "t"), `[c](code.md)`, protocol.md §3.5.',
      '[ref]: ../LICENSE',
    ].join('\n')
    expect(headingsOf(page).map((h) => h.slug)).toEqual([
      'title',
      '3-operations',
      '35-the-controller',
      'cutover-serve',
      'cutover-serve-1',
    ])
    expect(headingHasNumber('3. Operations', '3')).toBe(true)
    expect(headingHasNumber('3.5 The `controller`', '3.5')).toBe(true)
    expect(headingHasNumber('3.5 The controller', '3')).toBe(false)
    expect(headingHasNumber('35 things', '3')).toBe(false)
    expect(linkTargets(page).map((l) => l.target)).toEqual([
      'other.md#x',
      'screenshots/b.png',
      '../LICENSE',
    ])
    expect(sectionRefs(page)).toEqual([{ line: 9, page: 'protocol.md', section: '3.5' }])
    expect(sectionRefs('[protocol.md §8.1](protocol.md)')).toEqual([
      { line: 1, page: 'protocol.md', section: '8.1' },
    ])
  })

  for (const page of PAGES) {
    it(`[docs] ${page}: every relative link, image, #anchor and § reference leads to what it names`, () => {
      expect(brokenReferences(page)).toEqual([])
    })
  }
})

/** The repository's own files a reader meets outside docs/: code, help texts, messages, tests. */
const TRACKED = execFileSync('git', ['ls-files', '-z'], { cwd: REPO, encoding: 'utf8' }).split('\0')
function sourceFiles(): string[] {
  return TRACKED.filter((f) => /\.(ts|tsx|mjs|js|css|md|json|sh)$/.test(f)).filter(
    (f) => !f.startsWith('vendor/') && existsSync(join(REPO, f)),
  )
}

describe('[docs] references from the code into docs/', () => {
  const files = sourceFiles()
  const tracked = new Set(TRACKED.map((f) => f.split('/').pop()))

  it('[docs] every docs/<page>.md (§N) named in code, help texts, messages and tests exists, with that heading', () => {
    const problems: string[] = []
    for (const file of files) {
      const lines = readFileSync(join(REPO, file), 'utf8').split('\n')
      lines.forEach((line, i) => {
        for (const m of line.matchAll(/docs\/([a-z0-9-]+\.md)(?:\s*§\s*(\d+(?:\.\d+)*))?/g)) {
          const page = `docs/${m[1] as string}`
          if (!existsSync(join(REPO, page))) problems.push(`${file}:${i + 1}: no file ${page}`)
          else if (
            m[2] !== undefined &&
            !headingsOfFile(page).some((h) => headingHasNumber(h.text, m[2] as string))
          )
            problems.push(`${file}:${i + 1}: ${page} has no heading numbered ${m[2]}`)
        }
      })
    }
    expect(problems).toEqual([])
  })

  it('[docs] no file cites an upper-case .md page the repository does not have (a spec kept elsewhere)', () => {
    const problems: string[] = []
    for (const file of files) {
      const lines = readFileSync(join(REPO, file), 'utf8').split('\n')
      lines.forEach((line, i) => {
        for (const m of line.matchAll(/\b([A-Z][A-Z0-9_]+\.md)\b/g))
          if (!tracked.has(m[1])) problems.push(`${file}:${i + 1}: ${m[1]}`)
      })
    }
    expect(problems).toEqual([])
  })
})

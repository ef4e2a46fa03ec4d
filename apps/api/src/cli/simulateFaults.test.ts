import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { TraceEvent } from '@cutover/core/contracts'
import { simulateCommandLine } from '@cutover/core/contracts'
import { loadNodeWorkplaceData } from '@cutover/core/adapters'
import { apiHarness, tempDataDir } from '../testing/apiHarness.ts'
import { simulateCli } from '../testing/simulateCli.ts'

const workplace = loadNodeWorkplaceData()
const root = mkdtempSync(join(tmpdir(), 'cutover-faults-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** Splits a command line the way a POSIX shell does for the words it contains: spaces and '…'. */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '')
}

const simulate = (argv: readonly string[]) => simulateCli(root, workplace, argv)

describe('cutover simulate --faults / --bug', () => {
  const faults = [
    { kind: 'straggler', rollout: 'r1', extra_ms: 500 },
    { kind: 'stale_request', rollout: 1, participant: 'agent' },
    { kind: 'crash_after_write', k: 9999 },
  ]

  it('[cli] --faults JSON and --faults @FILE give the same run, and the faults are echoed with the inert ones', () => {
    const file = join(root, 'faults.json')
    writeFileSync(file, JSON.stringify(faults))
    const a = simulate([
      '--scenario',
      'happy-path',
      '--seed',
      '3',
      '--faults',
      JSON.stringify(faults),
      '--json',
    ])
    const b = simulate([
      '--scenario',
      'happy-path',
      '--seed',
      '3',
      '--faults',
      `@${file}`,
      '--json',
    ])
    expect(a.stderr).toBe('')
    const ja = JSON.parse(a.stdout) as {
      faults: unknown
      inert_faults: { fault: unknown; reason: string }[]
    }
    expect(ja.faults).toEqual(faults)
    expect(ja.inert_faults.map((f) => f.fault)).toEqual([{ kind: 'crash_after_write', k: 9999 }])
    expect(JSON.stringify(a.result?.events)).toBe(JSON.stringify(b.result?.events))
  })

  it('[cli] --faults naming a missing rollout, malformed JSON, an unreadable file or an unknown bug exit 2 with one line', () => {
    for (const bad of [
      ['--faults', '[{"kind":"straggler","rollout":"r7","extra_ms":1}]', '--rollouts', '90'],
      ['--faults', '[{"kind":'],
      ['--faults', `@${join(root, 'missing.json')}`],
      ['--faults', '[{"kind":"straggler","rollout":0}]'],
      ['--bug', 'nope'],
    ]) {
      const r = simulate(['--scenario', 'happy-path', '--seed', '1', ...bad])
      expect([bad, r.code]).toEqual([bad, 2])
      expect(r.stderr.trim().split('\n')).toHaveLength(1)
    }
    expect(
      simulate([
        '--scenario',
        'happy-path',
        '--seed',
        '1',
        '--rollouts',
        '90',
        '--faults',
        '[{"kind":"straggler","rollout":"r7","extra_ms":1}]',
      ]).stderr,
    ).toContain('"r00"…"r89"')
  })

  it('[cli] --bug runs the broken behaviour and exits 1 with its invariant failing', () => {
    const r = simulate([
      '--scenario',
      'happy-path',
      '--seed',
      '1',
      '--bug',
      'resume-agents-first',
      '--json',
    ])
    expect(r.code).toBe(1)
    expect(JSON.parse(r.stdout)).toMatchObject({
      bug: 'resume-agents-first',
      invariants: { 'resume-order': 'fail' },
    })
  })

  it('[cli] the copied “cutover simulate” command reproduces an API run with faults, deadline and bug byte for byte', async () => {
    const { dir, cleanup } = tempDataDir()
    try {
      const api = apiHarness(dir)
      const created = await api.createRun({
        scenario: 'straggler-retirement',
        seed: '123456789012345678901234567890',
        rollouts: 9,
        deadline_ms: 80,
        faults,
        bug: 'relay-applied-twice',
      })
      const view = await api.waitComplete(created.id)
      const events = (await api.json(`/api/runs/${view.id}/events`)).body.events as TraceEvent[]
      const line = simulateCommandLine(view)
      expect(line).toContain('--deadline-ms 80')
      expect(line).toContain('--faults ')
      const words = shellWords(line)
      expect(words.slice(0, 3)).toEqual(['npx', 'cutover', 'simulate'])
      const cli = simulate([...words.slice(3), '--json'])
      expect(cli.stderr).toBe('')
      expect(JSON.stringify(cli.result?.events)).toBe(JSON.stringify(events))
      expect(JSON.parse(cli.stdout)).toMatchObject({
        invariants: view.invariants,
        inert_faults: view.inert_faults,
      })
    } finally {
      cleanup()
    }
  })
})

describe('cutover simulate: messages that say what was meant', () => {
  it('[cli] an unknown scenario, bug, fault kind or option names the nearest valid one', () => {
    const cases: [string[], string][] = [
      [['--scenario', 'hapy-path', '--seed', '1'], "did you mean 'happy-path'?"],
      [
        ['--scenario', 'happy-path', '--seed', '1', '--bug', 'relay-aplied-twice'],
        "did you mean 'relay-applied-twice'?",
      ],
      [
        ['--scenario', 'happy-path', '--seed', '1', '--faults', '[{"kind":"stragler"}]'],
        "fault 0.kind: unknown fault kind 'stragler' — did you mean 'straggler'?",
      ],
      [
        [
          '--scenario',
          'happy-path',
          '--seed',
          '1',
          '--faults',
          '[{"kind":"straggler","rollout":0,"extra_ms":1,"extra":2}]',
        ],
        "'extra': did you mean 'extra_ms'?",
      ],
      [
        ['--scenaro', 'happy-path', '--seed', '1'],
        'unknown option --scenaro (did you mean --scenario?)',
      ],
    ]
    for (const [argv, hint] of cases) {
      const r = simulate(argv)
      expect([argv, r.code]).toEqual([argv, 2])
      expect(r.stderr).toContain(hint)
      expect(r.stderr.trim().split('\n')).toHaveLength(1)
    }
  })

  it('[cli] malformed --faults JSON names the position, with its line and column in a file', () => {
    const inline = simulate([
      '--scenario',
      'happy-path',
      '--seed',
      '1',
      '--faults',
      '[{"kind":"straggler",rollout:0}]',
    ])
    expect(inline.code).toBe(2)
    expect(inline.stderr).toMatch(/not JSON: .*position 21 \(line 1, column 22\)/)
    const file = join(root, 'faults-bad.json')
    writeFileSync(file, '[\n  {"kind": "straggler",\n   rollout: 0}\n]\n')
    const fromFile = simulate(['--scenario', 'happy-path', '--seed', '1', '--faults', `@${file}`])
    expect(fromFile.code).toBe(2)
    expect(fromFile.stderr).toMatch(/\(line 3, column 4\)/)
  })
})

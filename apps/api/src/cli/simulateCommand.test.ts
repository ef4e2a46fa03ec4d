import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { isAbsolute, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SCENARIOS } from '@cutover/core'
import { INVARIANT_IDS } from '@cutover/core/contracts'
import { NodeCheckpointDirectory, loadNodeWorkplaceData, nodeDigest } from '@cutover/core/adapters'
import { verifyCheckpoint } from '@cutover/core'
import { classifyCheckpoints, runSimulateCommand } from './simulateCommand.ts'
import type { SimulateCommandOptions } from './simulateCommand.ts'

const roots: string[] = []
function tempRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'cutover-simulate-'))
  roots.push(root)
  return root
}
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

const workplace = loadNodeWorkplaceData()

function run(argv: string[], dataDir = tempRoot(), extra: SimulateCommandOptions = {}) {
  let stdout = ''
  let stderr = ''
  const code = runSimulateCommand(
    argv,
    { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) },
    { dataDir, loadWorkplace: () => workplace, ...extra },
  )
  return { code, stdout, stderr, dataDir }
}

describe('cutover simulate', () => {
  it('[cli] --json prints exactly one object of the contract shape with absolute, verifying checkpoint dirs', () => {
    const r = run([
      '--scenario',
      'straggler-retirement',
      '--seed',
      '7',
      '--rollouts',
      '6',
      '--json',
    ])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout.trim().split('\n')).toHaveLength(1)
    const out = JSON.parse(r.stdout) as Record<string, unknown>
    expect(out).toMatchObject({
      scenario: 'straggler-retirement',
      seed: '7',
      rollouts: 6,
      outcome: 'completed',
      damaged: [],
      invalid: [],
      failures: [],
    })
    expect(typeof out['events']).toBe('number')
    expect(Object.keys(out['invariants'] as object).sort()).toEqual([...INVARIANT_IDS].sort())
    const checkpoints = out['checkpoints'] as string[]
    expect(checkpoints.length).toBeGreaterThan(0)
    for (const dir of checkpoints) {
      expect(isAbsolute(dir)).toBe(true)
      expect(dir.startsWith(join(r.dataDir, 'simulations', 'straggler-retirement-7-'))).toBe(true)
      expect(
        verifyCheckpoint(new NodeCheckpointDirectory(dir, { create: false }), nodeDigest).valid,
      ).toBe(true)
    }
  })

  it('[cli] the default output folder is new for every run under the data directory', () => {
    const dataDir = tempRoot()
    const a = JSON.parse(
      run(['--scenario', 'happy-path', '--seed', '3', '--rollouts', '2', '--json'], dataDir).stdout,
    ) as { out: string }
    const b = JSON.parse(
      run(['--scenario', 'happy-path', '--seed', '3', '--rollouts', '2', '--json'], dataDir).stdout,
    ) as { out: string }
    expect(a.out).toBe(join(dataDir, 'simulations', 'happy-path-3-1'))
    expect(b.out).toBe(join(dataDir, 'simulations', 'happy-path-3-2'))
  })

  it('[seed] a seed of any size is decimal text parsed with BigInt, leading zeros dropped', () => {
    const r = run([
      '--scenario',
      'happy-path',
      '--seed',
      '001180591620717411303435',
      '--rollouts',
      '2',
      '--json',
    ])
    expect(r.code).toBe(0)
    expect((JSON.parse(r.stdout) as { seed: string }).seed).toBe('1180591620717411303435')
  })

  it('[cli] a directory a fault broke on purpose is listed as damaged, not as a checkpoint, and the run passes', () => {
    const out = join(tempRoot(), 'given')
    const r = run([
      '--scenario',
      'corrupt-snapshot',
      '--seed',
      '1',
      '--rollouts',
      '3',
      '--out',
      out,
      '--json',
    ])
    expect(r.code).toBe(0)
    const report = JSON.parse(r.stdout) as { out: string; checkpoints: string[]; damaged: string[] }
    expect(report.out).toBe(out)
    expect(report.damaged).toHaveLength(1)
    expect(report.checkpoints).toHaveLength(1)
    expect(
      verifyCheckpoint(
        new NodeCheckpointDirectory(report.damaged[0] as string, { create: false }),
        nodeDigest,
      ).valid,
    ).toBe(false)
    expect(report.checkpoints[0]?.startsWith(`${out}/`)).toBe(true)
  })

  it('[cli] the human summary names the outcome, the directories, the event count and every invariant', () => {
    const r = run(['--scenario', 'happy-path', '--seed', '5', '--rollouts', '3'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('outcome: completed after')
    expect(r.stdout).toMatch(/checkpoints \(1 valid\):\n {2}\/.+ck-1/)
    for (const id of INVARIANT_IDS) expect(r.stdout).toContain(`pass  ${id}`)
  })

  it('[cli] --help lists every scenario with its narrative and exits 0', () => {
    const r = run(['--help'])
    expect(r.code).toBe(0)
    const flat = r.stdout.replace(/\s+/g, ' ')
    for (const s of SCENARIOS) {
      expect(flat).toContain(`${s.name} — ${s.title}`)
      expect(flat).toContain(s.narrative.replace(/\s+/g, ' '))
    }
  })

  it('[cli] usage errors print one line on stderr, exit 2 and write nothing', () => {
    const cases: [string[], RegExp][] = [
      [
        ['--scenario', 'nope', '--seed', '1'],
        /unknown scenario 'nope' \(one of happy-path, straggler-retirement, .*restore-race\)/,
      ],
      [['--seed', '1'], /--scenario NAME is required/],
      [['--scenario', 'happy-path'], /--seed N is required/],
      [['--scenario', 'happy-path', '--seed', '-1'], /--seed takes a non-negative decimal integer/],
      [
        ['--scenario', 'happy-path', '--seed', '0x10'],
        /--seed takes a non-negative decimal integer/,
      ],
      [
        ['--scenario', 'happy-path', '--seed', '1', '--rollouts', '0'],
        /--rollouts takes an integer from 1/,
      ],
      [['--scenario', 'happy-path', '--seed', '1', '--frobnicate'], /unknown option --frobnicate/],
      [['--scenario', 'happy-path', '--seed', '1', 'extra'], /unexpected argument extra/],
      [['--scenario', 'happy-path', '--seed'], /--seed needs a value/],
    ]
    for (const [argv, message] of cases) {
      const r = run(argv)
      expect(r.code, argv.join(' ')).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toMatch(message)
      expect(r.stderr.trim().split('\n')).toHaveLength(1)
      expect(existsSync(join(r.dataDir, 'simulations'))).toBe(false)
    }
  })

  it('[cli] --out refuses a folder that already holds files (exit 2)', () => {
    const out = tempRoot()
    writeFileSync(join(out, 'old.txt'), 'x')
    const r = run(['--scenario', 'happy-path', '--seed', '1', '--out', out])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/is not empty/)
    expect(readdirSync(out)).toEqual(['old.txt'])
  })

  it('[cli] a failed invariant exits 1 and names its first failing step and message', () => {
    const dataDir = tempRoot()
    const human = run(['--scenario', 'happy-path', '--seed', '2', '--rollouts', '3'], dataDir, {
      simulateOptions: { test: { resumeAgentsFirst: true } },
    })
    expect(human.code).toBe(1)
    expect(human.stdout).toMatch(/FAIL {2}resume-order — first failing step \d+: \S/)
    expect(human.stdout).toContain('result: FAILED')
    const json = run(
      ['--scenario', 'happy-path', '--seed', '2', '--rollouts', '3', '--json'],
      dataDir,
      { simulateOptions: { test: { resumeAgentsFirst: true } } },
    )
    expect(json.code).toBe(1)
    const report = JSON.parse(json.stdout) as {
      invariants: Record<string, string>
      failures: { id: string; step: number }[]
    }
    expect(report.invariants['resume-order']).toBe('fail')
    expect(report.failures.find((f) => f.id === 'resume-order')?.step).toBeGreaterThan(0)
  })

  it('[verify] a published, undamaged directory that does not verify is reported invalid, not as a checkpoint', () => {
    const r = run(['--scenario', 'happy-path', '--seed', '4', '--rollouts', '3', '--json'])
    const dir = (JSON.parse(r.stdout) as { checkpoints: string[] }).checkpoints[0] as string
    const sorted = () =>
      classifyCheckpoints([{ checkpoint_id: 'ck-1', location: dir, damaged: false }])
    expect(sorted()).toEqual({ checkpoints: [dir], damaged: [], invalid: [] })
    // Flip the marker's content: the directory no longer verifies although no fault was scheduled.
    writeFileSync(join(dir, 'checkpoint.json'), '{}\n')
    const after = sorted()
    expect(after.checkpoints).toEqual([])
    expect(after.invalid.length).toBeGreaterThan(0)
    expect(after.invalid[0]).toMatchObject({ dir })
    expect(classifyCheckpoints([{ checkpoint_id: 'ck-1', location: dir, damaged: true }])).toEqual({
      checkpoints: [],
      damaged: [dir],
      invalid: [],
    })
  })
})

import {
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { NodeCheckpointDirectory, nodeDigest } from '@cutover/core/adapters'
import { commitSampleCheckpoint, createSampleCheckpoint } from '@cutover/core/testing'
import { runVerifyCommand } from './verifyCommand.ts'

const roots: string[] = []
function tempRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'cutover-verify-'))
  roots.push(root)
  return root
}
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

function committedDir(): string {
  const root = tempRoot()
  const result = commitSampleCheckpoint(
    new NodeCheckpointDirectory(root),
    nodeDigest,
    createSampleCheckpoint(6),
  )
  expect(result.ok).toBe(true)
  return root
}

function run(argv: string[]) {
  let stdout = ''
  let stderr = ''
  const code = runVerifyCommand(argv, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
  })
  return { code, stdout, stderr }
}

describe('cutover verify', () => {
  it('[wire.nemo-rl-checkpoint] [cli] the checkpoint the real NeMo-RL controller published (vendor/real_stack/d1-adapted-cycle/data/ck-real-1) is valid, publisher nemo-rl', () => {
    const root = realpathSync(
      fileURLToPath(
        new URL('../../../../vendor/real_stack/d1-adapted-cycle/data/ck-real-1', import.meta.url),
      ),
    )
    const json = run([root, '--json'])
    expect(json).toMatchObject({ code: 0, stderr: '' })
    expect(JSON.parse(json.stdout)).toEqual({ valid: true, problems: [], publisher: 'nemo-rl' })
    expect(run([root]).stdout).toBe(`valid: ${root} (published by the NeMo-RL controller)\n`)
  })

  it('[cli] exits 0 on a valid directory, with exactly one JSON object under --json', () => {
    const root = committedDir()
    const json = run([root, '--json'])
    expect(json.code).toBe(0)
    expect(JSON.parse(json.stdout)).toEqual({ valid: true, problems: [], publisher: 'cutover' })
    expect(json.stdout.trim().split('\n')).toHaveLength(1)
    expect(json.stderr).toBe('')
    const human = run([root])
    expect(human).toEqual({ code: 0, stdout: `valid: ${root}\n`, stderr: '' })
  })

  it('[cli] exits 1 on an invalid directory, listing each problem code and path', () => {
    const root = committedDir()
    const victim = 'resources/blackjack/r0.a0.json'
    const data = readFileSync(join(root, victim))
    data[5] = (data[5] as number) ^ 0x01
    writeFileSync(join(root, victim), data)
    writeFileSync(join(root, 'agent', 'stray.json'), '{}')
    rmSync(join(root, 'checkpoint.json'))
    const json = run([root, '--json'])
    expect(json.code).toBe(1)
    const report = JSON.parse(json.stdout) as {
      valid: boolean
      problems: { code: string; path: string | null }[]
    }
    expect(report.valid).toBe(false)
    const pairs = report.problems.map((p) => [p.code, p.path])
    expect(pairs).toContainEqual(['digest_mismatch', victim])
    expect(pairs).toContainEqual(['unlisted_file', 'agent/stray.json'])
    expect(pairs).toContainEqual(['missing_manifest', 'checkpoint.json'])
    const human = run([root])
    expect(human.code).toBe(1)
    expect(human.stdout).toMatch(/^invalid: .* \(\d+ problems\)\n/)
    for (const [code, path] of pairs)
      expect(human.stdout).toMatch(new RegExp(`${code}\\s+${String(path).replace(/[.]/g, '\\.')}`))
  })

  it('[cli] reports a symlink inside DIR without following it', () => {
    const root = committedDir()
    const victim = 'agent/r1.a0.json'
    const copy = join(tempRoot(), 'r1.json')
    writeFileSync(copy, readFileSync(join(root, victim)))
    rmSync(join(root, victim))
    symlinkSync(copy, join(root, victim))
    const { code, stdout } = run([root, '--json'])
    expect(code).toBe(1)
    expect(
      (JSON.parse(stdout) as { problems: { code: string; path: string }[] }).problems,
    ).toContainEqual(expect.objectContaining({ code: 'symlink', path: victim }))
  })

  it('[cli] a missing DIR, no DIR, an unknown option or a file instead of DIR is a usage error (exit 2, one stderr line)', () => {
    const root = tempRoot()
    const file = join(root, 'file.txt')
    writeFileSync(file, 'x')
    for (const argv of [
      [join(root, 'nope')],
      [],
      ['--json'],
      [root, '--fast'],
      [file],
      [root, root],
    ]) {
      const { code, stdout, stderr } = run(argv)
      expect(code, JSON.stringify(argv)).toBe(2)
      expect(stdout).toBe('')
      expect(stderr.trimEnd().split('\n'), JSON.stringify(argv)).toHaveLength(1)
      expect(stderr).toMatch(/^cutover verify: /)
    }
  })

  it('[cli] a directory that is not a checkpoint at all exits 2 with not_a_checkpoint_directory, listing no files', () => {
    const root = tempRoot()
    for (const name of ['a.txt', 'b.txt']) writeFileSync(join(root, name), 'x')
    const plain = run([root])
    expect(plain.code).toBe(2)
    expect(plain.stdout).toBe('')
    expect(plain.stderr).toMatch(
      /^cutover verify: not_a_checkpoint_directory: .* does not look like/,
    )
    expect(plain.stderr).not.toContain('a.txt')
    const json = run([root, '--json'])
    expect(json.code).toBe(2)
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'not_a_checkpoint_directory' } })
  })

  it('[cli] --help prints the usage and exits 0', () => {
    const { code, stdout } = run(['--help'])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^usage: cutover verify DIR \[--json\]/)
    expect(stdout).toContain('revision_mismatch')
  })

  it('[cli] an empty directory is invalid (torn before anything was published), not a usage error', () => {
    const { code, stdout } = run([tempRoot(), '--json'])
    expect(code).toBe(1)
    const codes = (JSON.parse(stdout) as { problems: { code: string }[] }).problems.map(
      (p) => p.code,
    )
    expect(codes).toContain('missing_manifest')
  })
})

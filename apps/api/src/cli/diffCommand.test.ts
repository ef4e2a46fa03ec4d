import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunView } from '@cutover/core/contracts'
import { apiHarness, tempDataDir } from '../testing/apiHarness.ts'
import { runDiffCommand } from './diffCommand.ts'

const data = tempDataDir()
let happy: RunView
let happyAgain: RunView
let straggler: RunView

beforeAll(async () => {
  const api = apiHarness(data.dir)
  happy = await api.createRun({ scenario: 'happy-path', seed: 9, rollouts: 6 })
  happyAgain = await api.createRun({ scenario: 'happy-path', seed: 9, rollouts: 6 })
  straggler = await api.createRun({ scenario: 'straggler-retirement', seed: 9, rollouts: 6 })
  await api.runs.idle()
})
afterAll(() => data.cleanup())

function run(argv: string[]) {
  let stdout = ''
  let stderr = ''
  const code = runDiffCommand(
    argv,
    { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) },
    { CUTOVER_DATA_DIR: data.dir },
  )
  return { code, stdout, stderr }
}

describe('cutover diff', () => {
  it('[cli] identical runs: exit 0, --json with first_divergence null', () => {
    const r = run([happy.id, happyAgain.id, '--json'])
    expect([r.code, r.stderr]).toEqual([0, ''])
    expect(JSON.parse(r.stdout)).toEqual({
      identical: true,
      first_divergence: null,
      differences: 0,
    })
    expect(r.stdout.trim().split('\n')).toHaveLength(1)
    expect(run([happy.id, happyAgain.id]).stdout).toMatch(/^identical/)
  })

  it('[cli] happy-path vs straggler-retirement at the same seed: exit 1 with the first divergence', () => {
    const r = run([happy.id, straggler.id, '--json'])
    expect(r.code).toBe(1)
    const out = JSON.parse(r.stdout) as {
      identical: boolean
      first_divergence: { step_a: number; step_b: number; a: unknown; b: unknown }
      differences: number
    }
    expect(Object.keys(out).sort()).toEqual(['differences', 'first_divergence', 'identical'])
    expect(out.identical).toBe(false)
    expect(Object.keys(out.first_divergence).sort()).toEqual(['a', 'b', 'step_a', 'step_b'])
    expect(out.differences).toBeGreaterThan(0)
    const human = run([happy.id, straggler.id])
    expect(human.code).toBe(1)
    expect(human.stdout).toContain(
      `first divergence: step ${out.first_divergence.step_a} of A, step ${out.first_divergence.step_b} of B`,
    )
  })

  it('[diff] the text output names the fields that differ in each differing event', () => {
    const human = run([happy.id, straggler.id]).stdout
    const first = /first divergence:[^\n]*\n[^\n]*\n[^\n]*\n {2}differs in: (.+)/.exec(human)
    expect(first?.[1]).toMatch(/^(type|from|to|phase|outcome|time_ms|payload\.[a-z_]+)(, .+)?$/)
  })

  it('[cli] usage errors and unknown runs: exit 2, one line on stderr', () => {
    for (const argv of [
      [happy.id],
      [happy.id, 'zzzzzzzzzzz'],
      [happy.id, straggler.id, '--bogus'],
      [happy.id, straggler.id, 'extra'],
      [],
    ]) {
      const r = run(argv)
      expect([argv, r.code, r.stdout]).toEqual([argv, 2, ''])
      expect(r.stderr.trim().split('\n')).toHaveLength(1)
    }
    expect(run(['--help']).stdout).toContain('usage: cutover diff')
  })
})

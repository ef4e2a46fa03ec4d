import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CUTOVER_BIN } from '../fleet/spawnParticipant.ts'
import { processAlive } from '../participants/processAlive.ts'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})


/** Runs `cutover fleet …` as its own process (it spawns the participants) and collects its output. */
function cutover(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CUTOVER_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t))
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t))
    child.once('exit', (code) => resolve({ code, stdout, stderr }))
  })
}

describe('cutover fleet', () => {
  it('[fleet-process] straggler-retirement across real processes: the straggler retired over HTTP, originals replaced, directory verified, equivalent to the simulator, no process left', async () => {
    const out = mkdtempSync(join(tmpdir(), 'cutover-fleet-'))
    dirs.push(out)
    const r = await cutover(['fleet', '--scenario', 'straggler-retirement', '--seed', '7', '--out', out, '--json'])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const report = JSON.parse(r.stdout) as {
      outcome: string
      checkpoints: { verified: boolean }[]
      retired: string[]
      equivalence: { checked: number; matching: number }
      processes: { participant: string; pid: number; role: string }[]
      stdout?: never
    }
    expect(report.outcome).toBe('completed')
    expect(report.checkpoints[0]?.verified).toBe(true)
    expect(report.retired).toContain('r1')
    expect(report.equivalence).toMatchObject({ checked: 9, matching: 9 })
    const roles = (role: string) => report.processes.filter((p) => p.role === role).map((p) => p.participant).sort()
    const all = ['agent', 'policy_model', 'resources_blackjack', 'resources_counter', 'resources_workplace']
    expect(roles('original')).toEqual(all)
    expect(roles('replacement')).toEqual(all)
    for (const p of report.processes) expect(processAlive(p.pid), `${p.role} ${p.participant} pid ${p.pid}`).toBe(false)
    expect(r.stdout).not.toMatch(/token/i)
  }, 120_000)

  it('[cli] fleet refuses simulator-only scenarios and bad arguments with exit 2', async () => {
    const r = await cutover(['fleet', '--scenario', 'corrupt-snapshot', '--seed', '1'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/simulator-only/)
    expect((await cutover(['fleet', '--scenario', 'happy-path'])).code).toBe(2)
  }, 60_000)
})

import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { verifyCheckpoint } from '@cutover/core'
import { NodeCheckpointDirectory, nodeDigest } from '@cutover/core/adapters'
import { CUTOVER_BIN } from '../repoPaths.ts'
import { processAlive } from '../participants/processAlive.ts'
import { apiHarness } from '../testing/apiHarness.ts'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** The parts of `cutover fleet --json` these tests read. */
interface FleetJson {
  outcome: string
  verified: boolean
  checkpoints: string[]
  invariants: Record<string, string>
  failures: unknown[]
  scenario_problems: string[]
  originals_gone: boolean
  continued: string[]
  equivalence: { checked: number; matching: number }
  run_id: string
  processes: { participant: string; pid: number; role: string }[]
}

/** A stored fleet run's merged trace. */
function readTrace(
  out: string,
  runId: string,
): { type: string; to: string; outcome: string; payload: Record<string, unknown> }[] {
  return JSON.parse(readFileSync(join(out, 'runs', runId, 'trace.json'), 'utf8')) as {
    type: string
    to: string
    outcome: string
    payload: Record<string, unknown>
  }[]
}

/**
 * Runs `cutover fleet …` as its own process (it spawns the participants) and collects its output.
 */
function cutover(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CUTOVER_BIN, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t))
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t))
    child.once('exit', (code) => resolve({ code, stdout, stderr }))
  })
}

describe('cutover fleet', () => {
  it('[fleet-process] [fleet-trace] straggler-retirement across real processes: the straggler retired over HTTP, originals replaced, directory verified, equivalent to the simulator, stored as a fleet run the API serves, no process left', async () => {
    const data = mkdtempSync(join(tmpdir(), 'cutover-fleet-'))
    dirs.push(data)
    // A server already running on the data directory lists the run once cutover fleet stored it.
    const api = apiHarness(data)
    expect((await api.json('/api/runs')).body).toEqual({ runs: [] })
    const r = await cutover(
      ['fleet', '--scenario', 'straggler-retirement', '--seed', '7', '--json'],
      { CUTOVER_DATA_DIR: data },
    )
    expect(r.stderr).toBe('')
    expect(r.code, r.stdout).toBe(0)
    const report = JSON.parse(r.stdout) as {
      outcome: string
      verified: boolean
      checkpoints: string[]
      invariants: Record<string, string>
      failures: unknown[]
      events: number
      run_id: string
      retired: string[]
      equivalence: { checked: number; matching: number }
      processes: { participant: string; pid: number; role: string }[]
      stdout?: never
    }
    expect(report.outcome).toBe('completed')
    expect(report.verified).toBe(true)
    expect(report.checkpoints).toEqual([join(data, 'runs', report.run_id, 'checkpoints', 'ck-1')])
    expect(report.failures).toEqual([])
    expect(Object.values(report.invariants).every((v) => v === 'pass')).toBe(true)
    expect(report.retired).toContain('r1')
    expect(report.equivalence).toMatchObject({ checked: 9, matching: 9 })
    const roles = (role: string) =>
      report.processes
        .filter((p) => p.role === role)
        .map((p) => p.participant)
        .sort()
    const all = [
      'agent',
      'policy_model',
      'resources_blackjack',
      'resources_counter',
      'resources_workplace',
    ]
    expect(roles('original')).toEqual(all)
    expect(roles('replacement')).toEqual(all)
    for (const p of report.processes)
      expect(processAlive(p.pid), `${p.role} ${p.participant} pid ${p.pid}`).toBe(false)
    // The control token (48 hex digits, generated per run) is never printed; the invariant
    // token-partition is.
    expect(r.stdout).not.toMatch(/\b[0-9a-f]{48}\b|bearer|control_token/i)
    // the control token is never printed (the invariant ids, e.g. token-partition, are the only
    // mention of "token")
    expect(JSON.stringify({ ...report, invariants: undefined })).not.toMatch(/token/i)

    const runs = (await api.json('/api/runs')).body as {
      runs: { id: string; kind: string; events: number; processes: unknown[] }[]
    }
    expect(runs.runs).toMatchObject([{ id: report.run_id, kind: 'fleet', events: report.events }])
    expect(runs.runs[0]?.processes).toEqual(report.processes)
    const types = (
      (await api.json(`/api/runs/${report.run_id}/events`)).body as {
        events: { type: string; from: string }[]
      }
    ).events.map((e) => `${e.from}:${e.type}`)
    for (const t of [
      'controller:run.dispatch',
      'agent:model.request',
      'policy_model:model.response',
      'controller:model.abort_inflight',
      'agent:directory.write',
      'resources_counter:directory.write',
      'controller:agent.resume',
      'agent:run.complete',
    ])
      expect(types).toContain(t)
    const step = (await api.json(`/api/runs/${report.run_id}/steps/${report.events}`)).body as {
      participants: { id: string; pid?: number }[]
      invariants: Record<string, string>
    }
    const replacement = (participant: string) =>
      report.processes.find((p) => p.participant === participant && p.role === 'replacement')?.pid
    expect(step.participants.find((p) => p.id === 'agent')?.pid).toBe(replacement('agent'))
    expect(Object.values(step.invariants).every((v) => v === 'pass')).toBe(true)
    expect((await api.json(`/api/runs/${report.run_id}/checkpoints`)).status).toBe(200)
  })

  it('[coordinator.missing-workers] [coordinator.registration-rejected] [fleet-process] two-worker-admission with two model worker processes: ck-1 aborted on missing_workers, a replacement refused while closed, ck-2 completes', async () => {
    const out = mkdtempSync(join(tmpdir(), 'cutover-fleet-workers-'))
    dirs.push(out)
    const r = await cutover([
      'fleet',
      '--scenario',
      'two-worker-admission',
      '--seed',
      '3',
      '--rollouts',
      '3',
      '--out',
      out,
      '--json',
    ])
    expect(r.stderr).toBe('')
    expect(r.code, r.stdout).toBe(0)
    const report = JSON.parse(r.stdout) as {
      checkpoints: string[]
      failures: unknown[]
      notes: string[]
      run_id: string
      processes: { participant: string; pid: number; role: string }[]
    }
    expect(report.checkpoints).toEqual([join(out, 'runs', report.run_id, 'checkpoints', 'ck-2')])
    expect(report.failures).toEqual([])
    expect(report.notes.join('\n')).toMatch(/worker_registration_rejected/)
    const workers = report.processes.filter((p) => p.participant.startsWith('model_worker_'))
    expect(
      workers
        .filter((p) => p.role === 'replacement')
        .map((p) => p.participant)
        .sort(),
    ).toEqual(['model_worker_0', 'model_worker_1'])
    for (const p of report.processes)
      expect(processAlive(p.pid), `${p.role} ${p.participant} pid ${p.pid}`).toBe(false)
    const trace = JSON.parse(
      readFileSync(join(out, 'runs', report.run_id, 'trace.json'), 'utf8'),
    ) as { type: string; outcome: string }[]
    expect(trace.some((e) => e.type === 'model.status' && e.outcome === 'missing_workers')).toBe(
      true,
    )
    expect(
      trace.some(
        (e) => e.type === 'model.worker_register' && e.outcome === 'worker_registration_rejected',
      ),
    ).toBe(true)
  })

  it('[fence.stale-attempt-everywhere] [fleet-process] stale-attempt-fenced across processes: delayed requests of attempt N reach the restored model, agent and resources server and each refuses stale_attempt; exit 0, no process left', async () => {
    const out = mkdtempSync(join(tmpdir(), 'cutover-fleet-stale-'))
    dirs.push(out)
    const r = await cutover([
      'fleet',
      '--scenario',
      'stale-attempt-fenced',
      '--seed',
      '7',
      '--rollouts',
      '3',
      '--out',
      out,
      '--json',
    ])
    expect(r.stderr).toBe('')
    expect(r.code, r.stdout).toBe(0)
    const report = JSON.parse(r.stdout) as FleetJson
    expect(report).toMatchObject({
      outcome: 'completed',
      verified: true,
      failures: [],
      scenario_problems: [],
      originals_gone: true,
      equivalence: { checked: 3, matching: 3 },
    })
    expect(Object.values(report.invariants).every((v) => v === 'pass')).toBe(true)
    const trace = readTrace(out, report.run_id)
    const delayed = trace.filter((e) => e.payload['delayed'] === true)
    // One delayed request per participant, from attempt N of a continued rollout, each refused.
    const stale = delayed[0]?.payload['rollout_id'] as string
    expect(report.continued).toContain(stale)
    expect(delayed.map((e) => e.to).sort()).toEqual([
      'agent',
      'policy_model',
      expect.stringMatching(/^resources_(blackjack|counter|workplace)$/) as unknown as string,
    ])
    for (const e of delayed)
      expect({
        to: e.to,
        rollout: e.payload['rollout_id'],
        attempt: e.payload['attempt_index'],
        outcome: e.outcome,
      }).toEqual({ to: e.to, rollout: stale, attempt: 0, outcome: 'stale_attempt' })
    // They reached the replacements: attempt N+1 of the same rollout then completed there.
    expect(
      trace.some(
        (e) =>
          e.type === 'run.complete' &&
          e.payload['rollout_id'] === stale &&
          e.payload['attempt_index'] === 1 &&
          e.outcome === 'ok',
      ),
    ).toBe(true)
    for (const p of report.processes)
      expect(processAlive(p.pid), `${p.role} ${p.participant} pid ${p.pid}`).toBe(false)
  })

  it('[restore.corrupt-refused] [fleet-process] corrupt-snapshot across processes: the restore of ck-1 is abandoned on digest_mismatch naming the file, the fresh processes discarded, the originals resume and ck-2 restores clean; exit 0, no process left', async () => {
    const out = mkdtempSync(join(tmpdir(), 'cutover-fleet-corrupt-'))
    dirs.push(out)
    const r = await cutover([
      'fleet',
      '--scenario',
      'corrupt-snapshot',
      '--seed',
      '7',
      '--rollouts',
      '3',
      '--out',
      out,
      '--json',
    ])
    expect(r.stderr).toBe('')
    expect(r.code, r.stdout).toBe(0)
    const report = JSON.parse(r.stdout) as FleetJson
    const checkpoints = join(out, 'runs', report.run_id, 'checkpoints')
    expect(report).toMatchObject({
      outcome: 'completed',
      verified: true,
      failures: [],
      scenario_problems: [],
      originals_gone: true,
      checkpoints: [join(checkpoints, 'ck-2')],
      equivalence: { checked: 3, matching: 3 },
    })
    expect(Object.values(report.invariants).every((v) => v === 'pass')).toBe(true)
    const trace = readTrace(out, report.run_id)
    const flipped = trace.find((e) => e.type === 'fault.corrupt_file')
    expect(flipped?.payload).toMatchObject({
      checkpoint_id: 'ck-1',
      path: expect.stringMatching(/^resources\//) as unknown as string,
    })
    const abandoned = trace.filter((e) => e.type === 'controller.restore_abandoned')
    expect(abandoned).toHaveLength(1)
    expect(abandoned[0]?.payload['checkpoint_id']).toBe('ck-1')
    expect(abandoned[0]?.payload['reason']).toMatch(
      new RegExp(`digest_mismatch at ${String(flipped?.payload['path'])}`),
    )
    // Refused before any participant restored; every participant was resumed; ck-1 stays damaged on
    // disk, ck-2 verifies clean.
    expect(
      trace.filter((e) => e.type.endsWith('.restore') && e.payload['checkpoint_id'] === 'ck-1'),
    ).toEqual([])
    expect(
      trace
        .filter(
          (e) =>
            e.type.endsWith('.resume') &&
            e.payload['checkpoint_id'] === 'ck-1' &&
            e.outcome === 'ok',
        )
        .map((e) => e.to)
        .sort(),
    ).toEqual([
      'agent',
      'policy_model',
      'resources_blackjack',
      'resources_counter',
      'resources_workplace',
    ])
    const verify = (cid: string) =>
      verifyCheckpoint(
        new NodeCheckpointDirectory(join(checkpoints, cid), { create: false }),
        nodeDigest,
      ).problems.map((p) => p.code)
    expect(verify('ck-1')).toContain('digest_mismatch')
    expect(verify('ck-2')).toEqual([])
    // Three sets of processes: the originals, the discarded fresh ones, the replacements of ck-2.
    expect(report.processes.filter((p) => p.participant === 'agent').map((p) => p.role)).toEqual([
      'original',
      'replacement',
      'replacement',
    ])
    for (const p of report.processes)
      expect(processAlive(p.pid), `${p.role} ${p.participant} pid ${p.pid}`).toBe(false)
  })

  it('[fleet-process] SIGINT to cutover fleet mid-run stops every participant process it started, model workers included', async () => {
    const out = mkdtempSync(join(tmpdir(), 'cutover-fleet-sigint-'))
    dirs.push(out)
    const child = spawn(
      process.execPath,
      [
        CUTOVER_BIN,
        'fleet',
        '--scenario',
        'two-worker-admission',
        '--seed',
        '1',
        '--rollouts',
        '3',
        '--out',
        out,
      ],
      { stdio: ['ignore', 'ignore', 'ignore'] },
    )
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => resolve(code)),
    )
    /** The live descendants of `root` (Linux /proc). */
    const descendants = (root: number): number[] => {
      const parent = new Map<number, number>()
      for (const name of readdirSync('/proc')) {
        if (!/^\d+$/.test(name)) continue
        try {
          const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
          parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
        } catch {
          // the process ended while we looked
        }
      }
      const found: number[] = []
      const walk = (pid: number): void => {
        for (const [p, pp] of parent) {
          if (pp !== pid) continue
          found.push(p)
          walk(p)
        }
      }
      walk(root)
      return found
    }
    // Wait until all seven run: model, its two workers, three resources servers, the agent.
    let seen: number[] = []
    for (let waited = 0; waited < 60_000 && seen.length < 7; waited += 250) {
      await new Promise((r) => setTimeout(r, 250))
      seen = descendants(child.pid as number)
    }
    expect(seen.length).toBeGreaterThanOrEqual(7)
    child.kill('SIGINT')
    expect(await exited).not.toBe(0)
    for (let waited = 0; waited < 10_000 && seen.some(processAlive); waited += 100)
      await new Promise((r) => setTimeout(r, 100))
    for (const pid of seen) expect(processAlive(pid), `pid ${pid}`).toBe(false)
  })

  it('[cli] fleet refuses simulator-only scenarios and bad arguments with exit 2', async () => {
    const r = await cutover(['fleet', '--scenario', 'crash-during-commit', '--seed', '1'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/simulator-only/)
    expect((await cutover(['fleet', '--scenario', 'happy-path'])).code).toBe(2)
  })
})

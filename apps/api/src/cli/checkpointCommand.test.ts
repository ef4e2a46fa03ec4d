import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ParticipantProcess } from '../fleet/spawnParticipant.ts'
import { spawnParticipant } from '../fleet/spawnParticipant.ts'
import { CUTOVER_BIN } from '../repoPaths.ts'
import { processAlive } from '../participants/processAlive.ts'

const TOKEN = 'test-token-checkpoint-cli'
const dataDir = mkdtempSync(join(tmpdir(), 'cutover-checkpoint-cli-'))
const started: ParticipantProcess[] = []
const fleetFile = join(dataDir, 'fleet.json')
const replacementFile = join(dataDir, 'replacement.json')

function cutover(
  args: string[],
  token: string | null = TOKEN,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env }
    if (token === null) delete env['CUTOVER_CONTROL_TOKEN']
    else env['CUTOVER_CONTROL_TOKEN'] = token
    const child = spawn(process.execPath, [CUTOVER_BIN, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t))
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t))
    child.once('exit', (code) => resolve({ code, stdout, stderr }))
  })
}

beforeAll(async () => {
  const env = { CUTOVER_CONTROL_TOKEN: TOKEN, CUTOVER_DATA_DIR: dataDir }
  const start = async (args: string[]) => {
    const p = await spawnParticipant(args, env)
    started.push(p)
    return p
  }
  const [m, b, c, w] = await Promise.all([
    start(['model']),
    start(['gym', 'blackjack', '--port', '0']),
    start(['gym', 'counter', '--port', '0']),
    start(['gym', 'workplace', '--port', '0']),
  ])
  const a = await start([
    'agent',
    '--model',
    m.url,
    '--resources',
    `blackjack=${b.url},counter=${c.url},workplace=${w.url}`,
  ])
  writeFileSync(
    fleetFile,
    JSON.stringify({
      model: [m.url],
      agent: [a.url],
      resources: { blackjack: b.url, counter: c.url, workplace: w.url },
    }),
  )
  // Fresh processes a checkpoint is restored into.
  const fresh = ['--restore-expected']
  const [m2, b2, c2, w2] = await Promise.all([
    start(['model', ...fresh]),
    start(['gym', 'blackjack', '--port', '0', ...fresh]),
    start(['gym', 'counter', '--port', '0', ...fresh]),
    start(['gym', 'workplace', '--port', '0', ...fresh]),
  ])
  const a2 = await start([
    'agent',
    ...fresh,
    '--model',
    m2.url,
    '--resources',
    `blackjack=${b2.url},counter=${c2.url},workplace=${w2.url}`,
  ])
  writeFileSync(
    replacementFile,
    JSON.stringify({
      model: [m2.url],
      agent: [a2.url],
      resources: { blackjack: b2.url, counter: c2.url, workplace: w2.url },
    }),
  )
})

afterAll(async () => {
  await Promise.all(started.map((p) => p.stop()))
  for (const p of started) expect(processAlive(p.pid)).toBe(false)
  rmSync(dataDir, { recursive: true, force: true })
})

describe('cutover checkpoint', () => {
  it('[fleet-token] [fence.stale-before-replay] prepare then resume against a fleet file; the report names every participant; a repeated resume is already_finished', async () => {
    const status = await cutover([
      'checkpoint',
      'status',
      '--fleet',
      fleetFile,
      '--id',
      'ck-cli',
      '--json',
    ])
    expect(status.code).toBe(0)
    expect((JSON.parse(status.stdout) as { participants: unknown[] }).participants).toHaveLength(5)
    const prepare = await cutover([
      'checkpoint',
      'prepare',
      '--fleet',
      fleetFile,
      '--id',
      'ck-cli',
      '--json',
    ])
    expect(prepare.stderr).toBe('')
    expect(prepare.code).toBe(0)
    const report = JSON.parse(prepare.stdout) as {
      phase: string
      participants: { participant: string; error?: unknown }[]
    }
    expect(report.phase).toBe('prepared')
    expect(report.participants.map((p) => p.participant)).toEqual([
      'agent',
      'policy_model',
      'resources_blackjack',
      'resources_counter',
      'resources_workplace',
    ])
    const resume = await cutover([
      'checkpoint',
      'resume',
      '--fleet',
      fleetFile,
      '--id',
      'ck-cli',
      '--json',
    ])
    expect(resume.code).toBe(0)
    expect((JSON.parse(resume.stdout) as { phase: string }).phase).toBe('idle')
    // The id is finished: every participant answers a repeated resume stale_checkpoint (never its
    // cached bytes), which the command records as already_finished.
    const again = await cutover([
      'checkpoint',
      'resume',
      '--fleet',
      fleetFile,
      '--id',
      'ck-cli',
      '--json',
    ])
    expect(again.code).toBe(0)
    const repeated = JSON.parse(again.stdout) as { participants: { result?: unknown }[] }
    expect(repeated.participants.map((p) => p.result)).toEqual(
      Array.from({ length: 5 }, () => 'already_finished'),
    )
  })

  it('[fleet-replacement] commit and restore as single operations: prepare, commit (checkpoint.json last, the directory verifies), restore into --restore-expected processes (paused), resume', async () => {
    const half = (op: string, file = fleetFile) =>
      cutover(['checkpoint', op, '--fleet', file, '--id', 'ck-half', '--dir', dataDir, '--json'])
    expect((await half('prepare')).code).toBe(0)
    const commit = await half('commit')
    expect(commit.stderr).toBe('')
    expect(commit.code).toBe(0)
    const committed = JSON.parse(commit.stdout) as {
      phase: string
      directory: string
      participants: { participant: string; operation: string }[]
    }
    expect(committed.phase).toBe('committed')
    expect(committed.participants.map((p) => `${p.operation}:${p.participant}`)).toEqual([
      'agent.commit:agent',
      'model.commit:policy_model',
      'resources.commit:resources_blackjack',
      'resources.commit:resources_counter',
      'resources.commit:resources_workplace',
    ])
    const verify = await cutover(['verify', committed.directory])
    expect(verify.code).toBe(0)
    // The original fleet cannot be restored into (it is not fresh); the replacements can.
    const restore = await half('restore', replacementFile)
    expect(restore.stderr).toBe('')
    expect(restore.code).toBe(0)
    const restored = JSON.parse(restore.stdout) as {
      phase: string
      participants: { operation: string }[]
    }
    expect(restored.phase).toBe('restored')
    expect(restored.participants.map((p) => p.operation)).toEqual([
      'model.restore',
      'agent.restore',
      'resources.restore',
      'resources.restore',
      'resources.restore',
    ])
    expect((await half('resume', replacementFile)).code).toBe(0)
    expect((await half('resume')).code).toBe(0)
    // Nothing to restore from: refused, exit 1, every participant it was sent to resumed.
    const missing = await cutover([
      'checkpoint',
      'restore',
      '--fleet',
      replacementFile,
      '--id',
      'ck-none',
      '--dir',
      dataDir,
      '--json',
    ])
    expect(missing.code).toBe(1)
    expect((JSON.parse(missing.stdout) as { phase: string; reason: string }).reason).toMatch(
      /checkpoint_not_found|not found|missing/i,
    )
  })

  it('[control.envelope-everywhere] [cli] a restore from a checkpoint path that is a symlink (or a file) prints one JSON object: refused with checkpoint_dir_invalid, exit 1', async () => {
    mkdirSync(join(dataDir, 'ck-real'), { recursive: true })
    symlinkSync(join(dataDir, 'ck-real'), join(dataDir, 'ck-link'))
    writeFileSync(join(dataDir, 'ck-file'), 'not a directory')
    for (const id of ['ck-link', 'ck-file']) {
      const r = await cutover([
        'checkpoint',
        'restore',
        '--fleet',
        replacementFile,
        '--id',
        id,
        '--dir',
        dataDir,
        '--json',
      ])
      expect(r.code, r.stderr).toBe(1)
      const report = JSON.parse(r.stdout) as { phase: string; reason: string }
      expect(report.phase).toBe('aborted')
      expect(report.reason).toMatch(/^checkpoint_dir_invalid: /)
    }
    // A restore creates nothing: an absent checkpoint stays absent.
    expect(existsSync(join(dataDir, 'ck-none'))).toBe(false)
  }, 60_000)

  it('[controller.discover] [cli] a wrong or missing token, a bad fleet file, an unreachable participant: exit 2 naming the participant and endpoint', async () => {
    const wrong = await cutover(
      ['checkpoint', 'status', '--fleet', fleetFile, '--id', 'ck-x'],
      'wrong',
    )
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toMatch(
      /policy_model .*GET \/ng-control\/v1\/capabilities: HTTP 401 unauthorized/,
    )
    expect(
      (await cutover(['checkpoint', 'status', '--fleet', fleetFile, '--id', 'ck-x'], null)).code,
    ).toBe(2)
    const bad = join(dataDir, 'bad.json')
    writeFileSync(
      bad,
      JSON.stringify({ model: ['http://example.com:80'], agent: [], resources: {} }),
    )
    const badRun = await cutover(['checkpoint', 'status', '--fleet', bad, '--id', 'ck-x'])
    expect(badRun.code).toBe(2)
    expect(badRun.stderr).toMatch(/loopback/)
    const gone = join(dataDir, 'gone.json')
    writeFileSync(
      gone,
      JSON.stringify({
        model: ['http://127.0.0.1:9'],
        agent: ['http://127.0.0.1:9'],
        resources: {},
      }),
    )
    const goneRun = await cutover(['checkpoint', 'status', '--fleet', gone, '--id', 'ck-x'])
    expect(goneRun.code).toBe(2)
    expect(goneRun.stderr).toMatch(/policy_model \(http:\/\/127\.0\.0\.1:9\).*transport_error/)
  })
})

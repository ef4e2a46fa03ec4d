import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { RunView } from '@cutover/core/contracts'
import { spawnParticipant } from '../fleet/spawnParticipant.ts'
import { CUTOVER_BIN, REPO_ROOT } from '../repoPaths.ts'
import { apiHarness } from '../testing/apiHarness.ts'
import type { RecordedFleet } from '../testing/recordedFleet.ts'
import { driveRecordedCycle, startRecordedFleet } from '../testing/recordedFleet.ts'
import { runImportCommand } from './importCommand.ts'
import { runRecordCommand } from './recordCommand.ts'

const work = mkdtempSync(join(tmpdir(), 'cutover-record-cli-'))
const dataDir = join(work, 'data')
let fleet: RecordedFleet | undefined
afterAll(async () => {
  await fleet?.stop()
  rmSync(work, { recursive: true, force: true })
})

const capture = () => {
  let stdout = ''
  let stderr = ''
  return {
    io: { stdout: (t: string) => void (stdout += t), stderr: (t: string) => void (stderr += t) },
    out: () => stdout,
    err: () => stderr,
  }
}

describe('cutover record', () => {
  it('[record.forward-unchanged] [recorded.checks] in front of Cutover processes: a cycle driven by cutover checkpoint through the proxies is recorded, control and data plane, and every check it observes passes', async () => {
    fleet = await startRecordedFleet({ dataDir, workDir: work, runName: 'cli test' })
    const f = fleet
    // The fleet file and the Gym global config point at the proxies.
    const file = JSON.parse(readFileSync(f.fleetFile, 'utf8')) as {
      model: string[]
      agent: string[]
      resources: { [name: string]: string }
    }
    const url = (name: string) => f.proxies.find((p) => p.name === name)?.url
    expect(file).toEqual({
      model: [url('policy')],
      agent: [url('agent')],
      resources: {
        blackjack: url('blackjack'),
        counter: url('counter'),
        workplace: url('workplace'),
      },
    })
    const gym = JSON.parse(readFileSync(f.gymConfig, 'utf8')) as Record<
      string,
      Record<string, Record<string, { host: string; port: number }>>
    >
    expect(Object.keys(gym).sort()).toEqual([
      'agent',
      'blackjack',
      'counter',
      'policy',
      'workplace',
    ])
    expect(gym['policy']?.['responses_api_models']?.['cutover_model']).toEqual({
      host: '127.0.0.1',
      port: Number(new URL(url('policy') as string).port),
    })
    expect(Object.keys(gym['counter'] ?? {})).toEqual(['resources_servers'])

    await driveRecordedCycle(f)
    expect(await f.stopRecorder('SIGTERM')).toBe(0)
    const view = JSON.parse(
      readFileSync(join(dataDir, 'runs', f.runId, 'run.json'), 'utf8'),
    ) as RunView
    expect(view).toMatchObject({ kind: 'recorded', status: 'complete', outcome: 'completed' })
    expect([...(view.recording?.participants ?? [])].sort()).toEqual([
      'agent',
      'blackjack',
      'counter',
      'policy',
      'workplace',
    ])
    // Every black-box check passes: the aggregate names participants by their server names, as
    // their capabilities do (manifest-participants).
    const failing = (view.recording?.checks ?? []).filter((c) => c.status === 'fail')
    expect(failing.map((c) => c.id)).toEqual([])
    expect(view.recording?.checks.find((c) => c.id === 'manifest-participants')?.status).toBe(
      'pass',
    )
    const status = (id: string) => view.recording?.checks.find((c) => c.id === id)?.status
    expect(status('control-accepted')).toBe('pass')
    expect(status('prepared-before-commit')).toBe('pass')
    expect(status('committed-before-manifest')).toBe('pass')
    expect(status('published-after-commit')).toBe('pass')
    expect(status('commit-verifies')).toBe('pass')
    expect(status('resume-after-restore')).toBe('pass')
    expect(status('fenced-attempt-silent')).toBe('pass')
    expect(status('relay-once')).toBe('pass')
    expect(view.recording?.directories).toEqual([
      expect.objectContaining({ checkpoint_id: 'ck-rec', exists: true, published: true }),
    ])
    // The directory is openable in the inspector.
    expect(readFileSync(join(dataDir, 'inspect-roots.txt'), 'utf8')).toContain(
      join(f.participantsDir, 'ck-rec'),
    )
    // Data-plane calls are recorded: the agent's model calls with their identity and call ids.
    const lines = readFileSync(join(dataDir, 'runs', f.runId, 'exchanges.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            participant: string
            path: string
            headers: { request: object; response: object }
          },
      )
    const modelCalls = lines.filter(
      (l) => l.participant === 'policy' && l.path.endsWith('/v1/responses'),
    )
    expect(modelCalls.length).toBeGreaterThanOrEqual(3)
    expect(modelCalls[0]?.headers.request).toHaveProperty('x-nemo-gym-rollout-id')
    expect(modelCalls[0]?.headers.response).toHaveProperty('x-nemo-gym-model-call-id')
    expect(
      lines.some(
        (l) =>
          ['blackjack', 'counter', 'workplace'].includes(l.participant) &&
          !l.path.startsWith('/ng-control/'),
      ),
    ).toBe(true)
    // [record.no-secret] the token never reaches the recording.
    const text = readFileSync(join(dataDir, 'runs', f.runId, 'exchanges.jsonl'), 'utf8')
    expect(text).not.toContain(f.token)
    expect(text).not.toMatch(/Bearer (?!\*\*\*)/)
  }, 240_000)

  it('[record.crash-safe] a recorder killed with SIGKILL loses nothing it wrote: a server lists the run, closed, with what it recorded', async () => {
    const data = join(work, 'crash')
    const gym = await spawnParticipant(['gym', 'counter', '--port', '0'], {
      CUTOVER_DATA_DIR: join(work, 'crash-gym'),
    })
    const recorder = spawn(
      process.execPath,
      [CUTOVER_BIN, 'record', '--upstream', `counter=${gym.url}`],
      {
        env: { ...process.env, CUTOVER_DATA_DIR: data },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    const first = await new Promise<string>((resolve) => {
      let out = ''
      recorder.stdout.setEncoding('utf8').on('data', (t: string) => {
        out += t
        if (/recording run .* into .*\n/.test(out)) resolve(out)
      })
    })
    // The first stdout line is "NAME → URL".
    const m = /^counter → (http:\/\/127\.0\.0\.1:\d+)\n/.exec(first)
    expect(m).not.toBeNull()
    const proxy = (m as RegExpExecArray)[1] as string
    const file = (/recording run \S+ into (\S+)\n/.exec(first) as RegExpExecArray)[1] as string
    for (let i = 0; i < 3; i++)
      expect((await (await fetch(`${proxy}/`)).text()).length).toBeGreaterThan(0)
    // Once a line is in the file (written when its exchange ended), a kill cannot take it back.
    const lines = () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').length - 1 : 0)
    while (lines() < 3) await new Promise((r) => setTimeout(r, 20))
    const exited = new Promise((r) => recorder.once('exit', r))
    recorder.kill('SIGKILL')
    await exited
    await gym.stop()
    const api = apiHarness(data, { recordingPollMs: 0 })
    const [run] = (await api.json('/api/runs')).body.runs as RunView[]
    api.runs.refreshRecordings()
    const closed = (await api.json(`/api/runs/${run?.id ?? ''}`)).body as RunView
    expect(closed).toMatchObject({ kind: 'recorded', status: 'complete', events: 3 })
    expect(closed.recording?.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/stopped without closing the recording/),
    ])
  }, 60_000)

  it('[cli] usage errors exit 2 with one line', async () => {
    const cases: [string[], RegExp][] = [
      [[], /--upstream NAME=URL.* is required/],
      [['--upstream', 'agent'], /takes NAME=URL/],
      [['--upstream', 'a=http://127.0.0.1:1,a=http://127.0.0.1:2'], /names a twice/],
      [['--upstream', 'a=https://127.0.0.1:1'], /only http:\/\/ upstreams/],
      [
        ['--upstream', 'a=http://127.0.0.1:1', '--host', '0.0.0.0'],
        /beyond loopback, needs CUTOVER_CONTROL_TOKEN/,
      ],
    ]
    for (const [argv, message] of cases) {
      const c = capture()
      expect(await runRecordCommand(argv, c.io, { env: {}, cwd: work })).toBe(2)
      expect(c.err()).toMatch(message)
      expect(c.err().trim().split('\n')).toHaveLength(1)
    }
  })
})

describe('cutover import', () => {
  it('[import.malformed-line] a vendored recording imports (exit 0, the run stored); a malformed line is exit 2 naming it, nothing stored', () => {
    const data = join(work, 'imports')
    const ok = capture()
    const fixture = join(REPO_ROOT, 'vendor', 'real_stack', 'd1-unadapted', 'exchanges.jsonl')
    expect(
      runImportCommand([fixture, '--json'], ok.io, { env: { CUTOVER_DATA_DIR: data }, cwd: work }),
    ).toBe(0)
    const view = JSON.parse(ok.out()) as RunView
    expect(view.kind).toBe('recorded')
    expect(existsSync(join(data, 'runs', view.id, 'exchanges.jsonl'))).toBe(true)

    const bad = join(work, 'bad.jsonl')
    const lines = readFileSync(fixture, 'utf8').split('\n')
    writeFileSync(bad, `${lines[0]}\n${lines[1]}\n[1, 2]\n${lines[2]}\n`)
    const refused = capture()
    expect(
      runImportCommand([bad], refused.io, { env: { CUTOVER_DATA_DIR: data }, cwd: work }),
    ).toBe(2)
    expect(refused.err()).toMatch(/bad\.jsonl: line 3 is not a JSON object: .*nothing was imported/)
    expect(
      runImportCommand([join(work, 'none.jsonl')], capture().io, {
        env: { CUTOVER_DATA_DIR: data },
        cwd: work,
      }),
    ).toBe(2)
  })
})

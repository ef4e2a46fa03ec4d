import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { ParticipantProcess } from '../fleet/spawnParticipant.ts'
import { spawnParticipant } from '../fleet/spawnParticipant.ts'
import { CUTOVER_BIN } from '../repoPaths.ts'

/**
 * A `cutover fleet`-style set of Cutover participant processes with `cutover record` in front of
 * every one of them, the agent pointed at the model's and the resources' proxies (so its data-plane
 * calls are recorded too), and the steps of one checkpoint cycle driven through the proxies: the
 * harness of the recording tests (vitest and e2e) and of the recording part of the bench.
 */
export interface RecordedFleet {
  readonly runId: string
  readonly fleetFile: string
  readonly gymConfig: string
  readonly proxies: readonly { name: string; url: string; upstream: string }[]
  /** The participants' data directory (the checkpoint is `<dir>/<checkpoint id>`). */
  readonly participantsDir: string
  readonly token: string
  readonly recorder: ChildProcess
  /** `cutover <args>` with the fleet's token and the recorder's data directory. */
  cutover(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }>
  /** POST /run through the agent's proxy (the JSON answer and status). */
  run(body: object): Promise<{ status: number; body: unknown }>
  /** POST the exact receipt to the agent's acknowledge route, through its proxy. */
  acknowledge(receipt: unknown): Promise<number>
  /** Stops every participant and starts `--restore-expected` replacements on the same ports. */
  replace(): Promise<void>
  /** Sends the recorder a signal; resolves with its exit code once it exited. */
  stopRecorder(signal?: NodeJS.Signals): Promise<number | null>
  /** Stops everything still running. */
  stop(): Promise<void>
}

/** A free loopback port (bound and released: another process may take it meanwhile, rarely). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo
      s.close(() => resolve(port))
    })
  })
}

/** Starts the participants and the recorder (`--json`), resolving once every proxy listens. */
export async function startRecordedFleet(options: {
  /** The recorder's data directory (the server's, when the run is to be opened in it). */
  readonly dataDir: string
  /** Where the participants keep their data and the fleet files are written. */
  readonly workDir: string
  readonly runName?: string
}): Promise<RecordedFleet> {
  const token = `rec-token-${process.pid}-${Date.now().toString(36)}`
  const participantsDir = join(options.workDir, 'participants')
  mkdirSync(participantsDir, { recursive: true })
  const fleetFile = join(options.workDir, 'fleet.json')
  const gymConfig = join(options.workDir, 'gym-config.json')
  const env = { CUTOVER_CONTROL_TOKEN: token, CUTOVER_DATA_DIR: participantsDir }
  const [modelPort, agentPort, bjPort, ctPort, wpPort] = await Promise.all(
    Array.from({ length: 5 }, () => freePort()),
  )
  const at = (port: number | undefined) => `http://127.0.0.1:${port ?? 0}`
  let processes: ParticipantProcess[] = []
  const startParticipants = async (fresh: readonly string[]): Promise<void> => {
    const started = await Promise.all([
      spawnParticipant(['model', '--port', String(modelPort), ...fresh], env),
      spawnParticipant(['gym', 'blackjack', '--port', String(bjPort), ...fresh], env),
      spawnParticipant(['gym', 'counter', '--port', String(ctPort), ...fresh], env),
      spawnParticipant(['gym', 'workplace', '--port', String(wpPort), ...fresh], env),
    ])
    processes = started
  }
  await startParticipants([])

  const recorder = spawn(
    process.execPath,
    [
      CUTOVER_BIN,
      'record',
      '--upstream',
      [
        `policy=${at(modelPort)}`,
        `agent=${at(agentPort)}`,
        `blackjack=${at(bjPort)}`,
        `counter=${at(ctPort)}`,
        `workplace=${at(wpPort)}`,
      ].join(','),
      '--out',
      fleetFile,
      '--gym-config',
      gymConfig,
      '--run-name',
      options.runName ?? 'recorded fleet',
      '--checkpoint-root',
      participantsDir,
      '--json',
    ],
    {
      env: {
        ...process.env,
        CUTOVER_CONTROL_TOKEN: token,
        CUTOVER_DATA_DIR: options.dataDir,
        CUTOVER_PARENT_STDIN: '1',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  )
  let recorderErr = ''
  recorder.stderr?.setEncoding('utf8').on('data', (t: string) => (recorderErr += t))
  const exited = new Promise<number | null>((resolve) =>
    recorder.once('exit', (code) => resolve(code)),
  )
  const report = await new Promise<{ run_id: string; proxies: RecordedFleet['proxies'] }>(
    (resolve, reject) => {
      let out = ''
      recorder.once('exit', () => reject(new Error(`cutover record exited: ${recorderErr}`)))
      recorder.stdout?.setEncoding('utf8').on('data', (t: string) => {
        out += t
        const nl = out.indexOf('\n')
        if (nl >= 0)
          resolve(
            JSON.parse(out.slice(0, nl)) as { run_id: string; proxies: RecordedFleet['proxies'] },
          )
      })
    },
  )
  const proxy = (name: string): string =>
    report.proxies.find((p) => p.name === name)?.url ?? `missing proxy ${name}`
  const agentArgs = (fresh: readonly string[]) => [
    'agent',
    '--port',
    String(agentPort),
    ...fresh,
    '--model',
    proxy('policy'),
    '--resources',
    `blackjack=${proxy('blackjack')},counter=${proxy('counter')},workplace=${proxy('workplace')}`,
  ]
  processes.push(await spawnParticipant(agentArgs([]), env))

  const cutover: RecordedFleet['cutover'] = (args) =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, [CUTOVER_BIN, ...args], {
        env: { ...process.env, CUTOVER_CONTROL_TOKEN: token, CUTOVER_DATA_DIR: options.dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stdout = ''
      let stderr = ''
      child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t))
      child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t))
      child.once('exit', (code) => resolve({ code, stdout, stderr }))
    })
  const post = async (path: string, body: unknown, auth: boolean) => {
    const response = await fetch(`${proxy('agent')}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(auth ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(120_000),
    })
    const text = await response.text()
    let parsed: unknown = text
    try {
      parsed = JSON.parse(text)
    } catch {
      // not JSON: the text itself
    }
    return { status: response.status, body: parsed }
  }

  return {
    runId: report.run_id,
    fleetFile,
    gymConfig,
    proxies: report.proxies,
    participantsDir,
    token,
    recorder,
    cutover,
    run: (body) => post('/run', body, false),
    acknowledge: async (receipt) =>
      (
        await post(
          '/ng-control/v1/agent-checkpoint/acknowledge',
          { schema_version: 1, receipt },
          true,
        )
      ).status,
    async replace() {
      await Promise.all(processes.map((p) => p.stop()))
      const fresh = ['--restore-expected']
      await startParticipants(fresh)
      processes.push(await spawnParticipant(agentArgs(fresh), env))
    },
    async stopRecorder(signal = 'SIGTERM') {
      if (recorder.exitCode === null && recorder.signalCode === null) recorder.kill(signal)
      return exited
    },
    async stop() {
      if (recorder.exitCode === null && recorder.signalCode === null) recorder.kill('SIGTERM')
      await exited
      await Promise.all(processes.map((p) => p.stop()))
    },
  }
}

/** The three rollouts the recorded cycle dispatches: one quick, two still running at prepare. */
export const RECORDED_ROLLOUTS = [
  { rollout_id: 'r0', environment: 'blackjack', seed: '11', model_delay_ms: 0 },
  { rollout_id: 'r1', environment: 'counter', seed: '12', model_delay_ms: 2500 },
  { rollout_id: 'r2', environment: 'workplace', seed: '13', model_delay_ms: 2500 },
] as const

/**
 * The cycle through the proxies, step by step: dispatch (r0 finishes and is acknowledged, r1 and r2
 * are still running), prepare, commit into `<participants>/ck-rec`, replace every process,
 * restore, resume, and the continued rollouts dispatched again as attempt 1. Each step throws with
 * the CLI's stderr when it fails. `pause` runs between steps (the e2e looks at the live run).
 */
export async function driveRecordedCycle(
  fleet: RecordedFleet,
  pause: (after: 'prepare' | 'commit' | 'resume') => Promise<void> = async () => undefined,
): Promise<void> {
  const id = 'ck-rec'
  const op = async (operation: string): Promise<void> => {
    const r = await fleet.cutover([
      'checkpoint',
      operation,
      '--fleet',
      fleet.fleetFile,
      '--id',
      id,
      '--dir',
      fleet.participantsDir,
      '--deadline-ms',
      '30000',
      '--json',
    ])
    if (r.code !== 0)
      throw new Error(`cutover checkpoint ${operation}: exit ${r.code}: ${r.stderr}${r.stdout}`)
  }
  const [quick, ...slow] = RECORDED_ROLLOUTS
  const first = await fleet.run({ ...quick, attempt_index: 0, task: 0 })
  if (first.status !== 200)
    throw new Error(`/run r0: ${first.status} ${JSON.stringify(first.body)}`)
  const ack = await fleet.acknowledge((first.body as { receipt: unknown }).receipt)
  if (ack !== 200) throw new Error(`acknowledge r0: ${ack}`)
  // r1 and r2 are still generating when the checkpoint begins; their /run stays open until their
  // agent is replaced.
  // A result delivered meanwhile is acknowledged at once (as a rollout controller does): the agent
  // cannot be ready while it holds an unacknowledged result.
  const finished = new Set<string>()
  const running = slow.map(async (r) => {
    const answer = await fleet.run({ ...r, attempt_index: 0, task: 0 }).catch(() => undefined)
    if (answer?.status !== 200) return
    finished.add(r.rollout_id)
    await fleet.acknowledge((answer.body as { receipt: unknown }).receipt)
  })
  await new Promise((r) => setTimeout(r, 300))
  await op('prepare')
  await pause('prepare')
  await op('commit')
  await pause('commit')
  await fleet.replace()
  await Promise.all(running)
  await op('restore')
  await op('resume')
  await pause('resume')
  // The rollouts whose /run was cut off by the replacement continue as attempt 1.
  for (const r of slow.filter((r) => !finished.has(r.rollout_id))) {
    const again = await fleet.run({ ...r, attempt_index: 1, task: 0 })
    if (again.status !== 200)
      throw new Error(`/run ${r.rollout_id}.a1: ${again.status} ${JSON.stringify(again.body)}`)
    const acked = await fleet.acknowledge((again.body as { receipt: unknown }).receipt)
    if (acked !== 200) throw new Error(`acknowledge ${r.rollout_id}.a1: ${acked}`)
  }
}

// The fault campaign's harness (`npm run faults`): real participant processes, the real `cutover`
// CLI as the controller, and the pokes a campaign needs (poll a directory, SIGKILL a process).
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { cpSync, existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadPublishedCheckpoint, verifyCheckpoint } from '@cutover/core'
import type { CheckpointDirectory, VerifyReport } from '@cutover/core'
import { NodeCheckpointDirectory, nodeDigest } from '@cutover/core/adapters'
import type { ParticipantProcess } from '../fleet/spawnParticipant.ts'
import { spawnParticipant } from '../fleet/spawnParticipant.ts'
import { CUTOVER_BIN } from '../repoPaths.ts'

export const FAULT_TOKEN = 'fault-campaign-token-29'

/** The five processes of one fleet, and the fleet file naming them. */
export interface FaultFleet {
  readonly dataDir: string
  readonly file: string
  readonly procs: {
    model: ParticipantProcess
    blackjack: ParticipantProcess
    counter: ParticipantProcess
    workplace: ParticipantProcess
    agent: ParticipantProcess
  }
  /** Every process started for this fleet (replacements included), for `stop`. */
  readonly started: ParticipantProcess[]
  /** Rewrites the fleet file after a replacement. */
  writeFile(): void
  stop(): Promise<void>
}

/**
 * Starts a model, the three resources servers and an agent over them, with `dataDir` as their
 * data directory; `restoreExpected` for the fresh processes a checkpoint is restored into; `env`
 * adds to each process's environment (the fault hooks).
 */
export async function startFleet(
  dataDir: string,
  options: { restoreExpected?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<FaultFleet> {
  const env = { CUTOVER_CONTROL_TOKEN: FAULT_TOKEN, CUTOVER_DATA_DIR: dataDir, ...options.env }
  const fresh = options.restoreExpected === true ? ['--restore-expected'] : []
  const started: ParticipantProcess[] = []
  const start = async (args: string[]): Promise<ParticipantProcess> => {
    const p = await spawnParticipant([...args, ...fresh], env, 120_000)
    started.push(p)
    return p
  }
  const [model, blackjack, counter, workplace] = await Promise.all([
    start(['model']),
    start(['gym', 'blackjack', '--port', '0']),
    start(['gym', 'counter', '--port', '0']),
    start(['gym', 'workplace', '--port', '0']),
  ])
  const agent = await start([
    'agent',
    '--model',
    model.url,
    '--resources',
    `blackjack=${blackjack.url},counter=${counter.url},workplace=${workplace.url}`,
  ])
  const procs = { model, blackjack, counter, workplace, agent }
  const file = join(dataDir, `fleet-${model.port}.json`)
  const fleet: FaultFleet = {
    dataDir,
    file,
    procs,
    started,
    writeFile: () =>
      writeFileSync(
        file,
        JSON.stringify({
          model: [procs.model.url],
          agent: [procs.agent.url],
          resources: {
            blackjack: procs.blackjack.url,
            counter: procs.counter.url,
            workplace: procs.workplace.url,
          },
        }),
      ),
    stop: async () => {
      await Promise.all(started.map((p) => p.stop(1000)))
    },
  }
  fleet.writeFile()
  return fleet
}

/** Starts one more participant into `fleet` (a replacement for a killed one). */
export async function replace(
  fleet: FaultFleet,
  which: 'agent' | 'counter',
  options: { restoreExpected?: boolean } = {},
): Promise<ParticipantProcess> {
  const env = { CUTOVER_CONTROL_TOKEN: FAULT_TOKEN, CUTOVER_DATA_DIR: fleet.dataDir }
  const { procs } = fleet
  const args =
    which === 'counter'
      ? ['gym', 'counter', '--port', '0']
      : [
          'agent',
          '--model',
          procs.model.url,
          '--resources',
          `blackjack=${procs.blackjack.url},counter=${procs.counter.url},workplace=${procs.workplace.url}`,
        ]
  const p = await spawnParticipant(
    [...args, ...(options.restoreExpected === true ? ['--restore-expected'] : [])],
    env,
    120_000,
  )
  fleet.started.push(p)
  procs[which] = p
  fleet.writeFile()
  return p
}

/** One `cutover` CLI process: its exit, and its output once it exited. */
export interface CliRun {
  readonly child: ChildProcess
  readonly done: Promise<{
    code: number | null
    signal: string | null
    stdout: string
    stderr: string
  }>
}

/** Starts `cutover <args>` with the campaign's token (and `env`, the fault hooks). */
export function startCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): CliRun {
  const child = spawn(process.execPath, [CUTOVER_BIN, ...args], {
    env: { ...process.env, CUTOVER_CONTROL_TOKEN: FAULT_TOKEN, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout?.setEncoding('utf8').on('data', (t: string) => (stdout += t))
  child.stderr?.setEncoding('utf8').on('data', (t: string) => (stderr += t))
  const done = new Promise<{
    code: number | null
    signal: string | null
    stdout: string
    stderr: string
  }>((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })))
  return { child, done }
}

/** `cutover checkpoint OP` against a fleet, to its end; its `--json` report parsed. */
export async function checkpoint(
  op: string,
  fleet: FaultFleet,
  id: string,
  extra: readonly string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; report: CheckpointReport; stderr: string }> {
  const run = startCli(
    [
      'checkpoint',
      op,
      '--fleet',
      fleet.file,
      '--id',
      id,
      '--dir',
      fleet.dataDir,
      '--json',
      ...extra,
    ],
    env,
  )
  const { code, stdout, stderr } = await run.done
  let report: CheckpointReport
  try {
    report = JSON.parse(stdout) as CheckpointReport
  } catch {
    throw new Error(`cutover checkpoint ${op} ${id}: exit ${code}, no JSON: ${stdout} ${stderr}`)
  }
  return { code, report, stderr }
}

/** The `cutover checkpoint … --json` object. */
export interface CheckpointReport {
  readonly phase: string
  readonly reason?: string
  readonly participants: readonly {
    readonly participant: string
    readonly operation?: string
    readonly result?: unknown
    readonly error?: { readonly code: string; readonly message: string }
  }[]
}

/** A participant's control capabilities (its fence phase and active id). */
export async function capabilities(
  p: ParticipantProcess,
): Promise<{ phase: string; active_checkpoint_id: string | null }> {
  const r = await fetch(`${p.url}/ng-control/v1/capabilities`, {
    headers: { authorization: `Bearer ${FAULT_TOKEN}` },
  })
  return (await r.json()) as { phase: string; active_checkpoint_id: string | null }
}

/** Polls `check` every `everyMs` until it returns a value, or throws after `timeoutMs`. */
export async function pollUntil<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 60_000,
  everyMs = 5,
): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}

/** The temp file a writer holds for `path` (relative to `dir`), if one is there now. */
export function tempFor(dir: string, path: string): string | undefined {
  const slash = path.lastIndexOf('/')
  const folder = join(dir, slash < 0 ? '' : path.slice(0, slash))
  const prefix = `.cutover-tmp-${path.slice(slash + 1)}-`
  if (!existsSync(folder)) return undefined
  try {
    return readdirSync(folder).find((n) => n.startsWith(prefix))
  } catch {
    return undefined
  }
}

/** Every file under `dir`, relative, `/`-separated, sorted. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  const out: string[] = []
  const walk = (rel: string): void => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel === '' ? e.name : `${rel}/${e.name}`
      if (e.isDirectory()) walk(path)
      else out.push(path)
    }
  }
  walk('')
  return out.sort()
}

/** A reader of D as `cutover verify` opens it. */
const reader = (dir: string): CheckpointDirectory =>
  new NodeCheckpointDirectory(dir, { create: false })

/** `cutover verify`'s report of `dir` (the same function the CLI runs). */
export function verify(dir: string): VerifyReport {
  return verifyCheckpoint(reader(dir), nodeDigest)
}

/**
 * Whether restore would accept `dir` for checkpoint `id`: the check the controller runs before
 * any participant restores (`loadPublishedCheckpoint`), or why not.
 */
export function restoreGate(dir: string, id: string): { ok: boolean; why: string } {
  if (!existsSync(dir)) return { ok: false, why: 'no directory' }
  try {
    const r = loadPublishedCheckpoint(reader(dir), nodeDigest, id)
    return r.ok ? { ok: true, why: '' } : { ok: false, why: `${r.error.code}: ${r.error.message}` }
  } catch (error) {
    return { ok: false, why: error instanceof Error ? error.message : String(error) }
  }
}

/** Copies checkpoint `from` to `to` (a fresh copy to damage, or into another data directory). */
export function copyCheckpoint(from: string, to: string): void {
  cpSync(from, to, { recursive: true, verbatimSymlinks: true })
}

/**
 * Rollouts the agent runs over the fleet (counter: four model calls each, each `delayMs` long),
 * each completed result acknowledged with its receipt as a controller's dispatcher does, so it
 * never blocks a later prepare. Resolves when every one has ended (parked ones after a resume).
 */
export function runRollouts(
  fleet: FaultFleet,
  ids: readonly string[],
  delayMs: number,
): Promise<unknown[]> {
  const agent = fleet.procs.agent
  return Promise.all(
    ids.map(async (rollout_id, i) => {
      const r = await fetch(`${agent.url}/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          rollout_id,
          attempt_index: 0,
          environment: 'counter',
          task: i,
          model_delay_ms: delayMs,
        }),
      }).catch((error: unknown) => error)
      if (!(r instanceof Response)) return r
      const answer = (await r.json().catch(() => null)) as { receipt?: unknown } | null
      if (answer?.receipt !== undefined)
        await fetch(`${agent.url}/ng-control/v1/agent-checkpoint/acknowledge`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${FAULT_TOKEN}`,
          },
          body: JSON.stringify({ schema_version: 1, receipt: answer.receipt }),
        }).catch(() => undefined)
      return answer
    }),
  )
}

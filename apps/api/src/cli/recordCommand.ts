import { existsSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { RunView } from '@cutover/core/contracts'
import { NodeCheckpointDirectory } from '@cutover/core/adapters'
import { addInspectRoot } from '../directories/inspectRoots.ts'
import { isLoopbackHost } from '../http/guardHost.ts'
import { resolveDataDir } from '../nodeAppDeps.ts'
import type { CliIo } from '../process/io.ts'
import { EXIT, UsageError } from '../process/io.ts'
import { DEFAULT_MAX_BODY_BYTES } from '../record/BodyCapture.ts'
import { proxyFleetFile, proxyGymConfig } from '../record/proxyConfigs.ts'
import type { Recording, Upstream } from '../record/startRecording.ts'
import { startRecording } from '../record/startRecording.ts'
import { createRunIdSource } from '../runs/runIds.ts'
import { createFileRunStore } from '../store/FileRunStore.ts'
import { parseArgs, parseIntegerOption, wantsHelp } from './parseArgs.ts'

export const RECORD_HELP = `usage: cutover record --upstream NAME=URL[,NAME=URL…] [--port-base N] [--host ADDRESS]
                      [--out FLEET_FILE] [--gym-config FILE] [--run-name S] [--max-body-bytes N]
                      [--checkpoint-root DIR] [--json]

Stands a recording reverse proxy in front of each participant server and records every exchange
that passes through it as a run of kind "recorded" (docs/recording.md): point the controller at the
proxies instead of the servers (NeMo-RL's checkpoint controller through --gym-config, cutover
checkpoint through --out). Each proxy forwards requests and answers unchanged (status, headers,
chunked and streaming bodies, long polls; only Host is set to the upstream's) and never needs to
understand a message to forward it. An upstream that does not answer gets the client a 502
{"error": {"code": "transport_error", …}}, recorded like any answer.

The recording is one append-only JSON-lines file, runs/<id>/exchanges.jsonl in the data directory
(CUTOVER_DATA_DIR, or .cutover/): one line per exchange, written when it ends, with participant,
method, path, query, request and response bodies (at most --max-body-bytes each, default 65536;
longer ones keep their head, their size and their SHA-256), status, start and end times (wall
clock and monotonic) and the identity headers. The Authorization header is never written (only its
scheme), nor the control token nor any credential it carried, anywhere in a line. A killed
recorder loses at most the exchanges in flight. cutover serve lists the run and opens it live.
The checkpoint directory an accepted commit or restore names is added to the directories the
inspector may open (<data directory>/inspect-roots.txt).

Options:
  --upstream NAME=URL,…  the participants: policy (the model), agent, and resources server names
                         (blackjack, counter, workplace, …), each with its server's http:// URL
  --port-base N          the n-th proxy listens on N+n (default: free ports)
  --host ADDRESS         where the proxies listen (default HOST or 127.0.0.1; beyond loopback
                         needs CUTOVER_CONTROL_TOKEN, as for cutover serve)
  --out FLEET_FILE       write a fleet file of the proxy URLs (policy under model, agent under
                         agent, the rest under resources) for cutover checkpoint --fleet
  --gym-config FILE      write the NeMo Gym global-config entries of the proxies (JSON, also YAML):
                         { NAME: { responses_api_models|responses_api_agents|resources_servers:
                         { impl: { host, port } } } }, for NeMo-RL's checkpoint discovery
  --run-name S           a name for the run
  --max-body-bytes N     bytes of each body kept (default 65536)
  --checkpoint-root DIR  where a relative checkpoint_dir of a request resolves (the participants'
                         data directory; default: the working directory)
  --json                 print one line once every proxy listens:
                         { "run_id", "proxies": [{ "name", "url", "upstream" }] }

Without --json the first lines are "NAME → URL", one per proxy. Runs until SIGINT or SIGTERM, then
closes the recording (exchanges still open get 2 s, then are cut off and recorded as such) and
exits 0. Exit 2 for usage errors or a port that cannot be bound.`

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/

interface RecordArgs {
  readonly upstreams: readonly Upstream[]
  readonly portBase: number | undefined
  readonly host: string
  readonly out: string | undefined
  readonly gymConfig: string | undefined
  readonly runName: string | null
  readonly maxBodyBytes: number
  readonly checkpointRoot: string | undefined
  readonly json: boolean
}

/** Parses `NAME=URL[,NAME=URL…]`: unique names, http:// URLs. */
export function parseUpstreams(text: string): Upstream[] {
  const out: Upstream[] = []
  for (const item of text.split(',')) {
    const at = item.indexOf('=')
    if (at <= 0) throw new UsageError(`--upstream takes NAME=URL[,NAME=URL…], got '${item}'`)
    const name = item.slice(0, at).trim()
    const raw = item.slice(at + 1).trim()
    if (!NAME.test(name))
      throw new UsageError(`--upstream: '${name}' is not a name (letters, digits, _ . -)`)
    if (out.some((u) => u.name === name)) throw new UsageError(`--upstream names ${name} twice`)
    let url: URL
    try {
      url = new URL(raw)
    } catch {
      throw new UsageError(`--upstream ${name}: '${raw}' is not a URL`)
    }
    if (url.protocol !== 'http:')
      throw new UsageError(
        `--upstream ${name}: only http:// upstreams are proxied, got ${url.protocol}`,
      )
    if (url.search !== '' || url.hash !== '')
      throw new UsageError(`--upstream ${name}: the URL takes no query or fragment`)
    out.push({ name, url })
  }
  return out
}

function parseRecordArgs(argv: readonly string[], env: NodeJS.ProcessEnv): RecordArgs {
  const { values, switches } = parseArgs(argv, {
    values: [
      '--upstream',
      '--port-base',
      '--host',
      '--out',
      '--gym-config',
      '--run-name',
      '--max-body-bytes',
      '--checkpoint-root',
    ],
    switches: ['--json'],
  })
  const upstreamText = values.get('--upstream')
  if (upstreamText === undefined)
    throw new UsageError('--upstream NAME=URL[,NAME=URL…] is required')
  const upstreams = parseUpstreams(upstreamText)
  const portText = values.get('--port-base')
  const portBase =
    portText === undefined
      ? undefined
      : parseIntegerOption('--port-base', portText, 1, 65536 - upstreams.length)
  const host = (values.get('--host') ?? env['HOST'] ?? '127.0.0.1').trim()
  if (host === '') throw new UsageError('--host must name an address')
  const token = env['CUTOVER_CONTROL_TOKEN']
  if (!isLoopbackHost(host) && (token === undefined || token === ''))
    throw new UsageError(
      `listening on ${host}, beyond loopback, needs CUTOVER_CONTROL_TOKEN set (as for cutover serve)`,
    )
  const maxText = values.get('--max-body-bytes')
  const maxBodyBytes =
    maxText === undefined
      ? DEFAULT_MAX_BODY_BYTES
      : parseIntegerOption('--max-body-bytes', maxText, 0, 64 * 1024 * 1024)
  const runName = values.get('--run-name') ?? null
  if (runName !== null && (runName.length > 200 || [...runName].some((ch) => ch < ' ')))
    throw new UsageError('--run-name takes up to 200 printable characters')
  return {
    upstreams,
    portBase,
    host,
    out: values.get('--out'),
    gymConfig: values.get('--gym-config'),
    runName,
    maxBodyBytes,
    checkpointRoot: values.get('--checkpoint-root'),
    json: switches.has('--json'),
  }
}

/** Seams for tests: the environment, the working directory, and the recording once it runs. */
export interface RecordOptions {
  readonly env?: NodeJS.ProcessEnv
  readonly cwd?: string
  /** Receives the recording instead of this command closing it on SIGINT/SIGTERM. */
  readonly onRecording?: (recording: Recording) => void
}

/** One line on the finished recording, for people. */
export function recordingSummary(view: RunView): string {
  const checks = view.recording?.checks ?? []
  const failed = checks.filter((c) => c.status === 'fail')
  const problems = view.recording?.problems ?? []
  return `recorded run ${view.id}: ${view.events} exchanges; ${failed.length === 0 ? 'no check fails' : `failing: ${failed.map((c) => `${c.id} (exchange ${c.exchange ?? '?'})`).join(', ')}`}${problems.length === 0 ? '' : `; ${problems.map((p) => p.message).join('; ')}`}`
}

/** `cutover record` (docs/recording.md): resolves once every proxy listens. */
export async function runRecordCommand(
  argv: readonly string[],
  io: CliIo,
  options: RecordOptions = {},
): Promise<number> {
  if (wantsHelp(argv)) {
    io.stdout(`${RECORD_HELP}\n`)
    return EXIT.ok
  }
  const env = options.env ?? process.env
  const cwd = options.cwd ?? process.cwd()
  let args: RecordArgs
  try {
    args = parseRecordArgs(argv, env)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    io.stderr(`cutover record: ${error.message} (see cutover record --help)\n`)
    return EXIT.usage
  }
  const dataDir = resolveDataDir(env, cwd)
  const store = createFileRunStore(
    dataDir,
    (path, create) => new NodeCheckpointDirectory(path, { create }),
  )
  const now = Date.now()
  const runId = createRunIdSource().next(now, (id) => existsSync(join(dataDir, 'runs', id)))
  let recording: Recording
  try {
    recording = await startRecording({
      runId,
      store,
      upstreams: args.upstreams,
      host: args.host,
      portBase: args.portBase,
      runName: args.runName,
      maxBodyBytes: args.maxBodyBytes,
      secrets: [env['CUTOVER_CONTROL_TOKEN'], env['NEMO_GYM_CHECKPOINT_CONTROL_TOKEN']],
      createdAt: new Date(now).toISOString(),
      cwd: args.checkpointRoot === undefined ? cwd : resolve(cwd, args.checkpointRoot),
      pid: process.pid,
      onCheckpointDir: (path) => addInspectRoot(dataDir, path),
    })
  } catch (error) {
    io.stderr(`cutover record: cannot listen: ${(error as Error).message}\n`)
    return EXIT.usage
  }
  const proxies = recording.proxies
  try {
    if (args.out !== undefined)
      writeFileSync(resolve(cwd, args.out), `${JSON.stringify(proxyFleetFile(proxies), null, 2)}\n`)
    if (args.gymConfig !== undefined)
      writeFileSync(
        resolve(cwd, args.gymConfig),
        `${JSON.stringify(proxyGymConfig(proxies), null, 2)}\n`,
      )
  } catch (error) {
    await recording.close()
    io.stderr(`cutover record: cannot write ${(error as Error).message}\n`)
    return EXIT.usage
  }
  if (args.json) io.stdout(`${JSON.stringify({ run_id: runId, proxies })}\n`)
  else {
    for (const p of proxies) io.stdout(`${p.name} → ${p.url}\n`)
    io.stdout(`recording run ${runId} into ${store.recordingPath(runId)}\n`)
  }
  io.stderr(
    `cutover record: recording ${proxies.length} participants as run ${runId}; Ctrl-C stops\n`,
  )
  if (options.onRecording !== undefined) {
    options.onRecording(recording)
    return EXIT.ok
  }
  const stop = (): void => {
    void recording.close().then(
      (view) => {
        io.stderr(`${recordingSummary(view)}\n`)
        process.exit(EXIT.ok)
      },
      (error: unknown) => {
        io.stderr(`cutover record: closing the recording failed: ${String(error)}\n`)
        process.exit(EXIT.failure)
      },
    )
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  // A parent that spawned this recorder and went away stops it too (tests, cutover fleet-style).
  if (env['CUTOVER_PARENT_STDIN'] === '1') {
    process.stdin.on('end', stop)
    process.stdin.on('close', stop)
    process.stdin.resume()
  }
  return EXIT.ok
}

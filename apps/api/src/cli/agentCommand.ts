import type { EnvName } from '@cutover/core'
import { AgentParticipant, ENV_NAMES } from '@cutover/core'
import { NodeCheckpointDirectory, nodeDigest } from '@cutover/core/adapters'
import { createAgentApp } from '../agent/createAgentApp.ts'
import { processTrace } from '../participants/processTrace.ts'
import { recordingDirectories } from '../participants/recordingDirectories.ts'
import { serveParticipant } from '../participants/serveParticipant.ts'
import type { CliIo } from '../process/io.ts'
import { readParticipantArgs } from './readParticipantArgs.ts'
import { EXIT, UsageError } from '../process/io.ts'
import { parseArgs, parseIntegerOption } from './parseArgs.ts'

export const AGENT_HELP = `usage: cutover agent [--port N] --model URL --resources blackjack=URL,counter=URL,workplace=URL [--restore-expected]

Serves the agent participant (instance "agent") on 127.0.0.1 (--port 0 or absent: a free port,
printed as the first stdout line "listening on http://127.0.0.1:<port>"). POST /run with
{"rollout_id","attempt_index","environment","seed"?,"task"?} runs one rollout against the model
and resources servers over HTTP and answers, when it ended, {"rollout_id","attempt_index","reward",
"output","receipt"}. With CUTOVER_CONTROL_TOKEN set, the control routes of docs/protocol.md §3.3 are
mounted under /ng-control/v1/agent-checkpoint/ behind Authorization: Bearer <token>: prepare
answers once every execution is parked on a boundary, else 409 agent_prepare_incomplete at the
deadline (?wait_ready=0: at once); acknowledge takes a receipt flat or wrapped. checkpoint_dir and
the clock as for cutover gym (CUTOVER_CHECKPOINT_ROOTS, CUTOVER_CLOCK_OFFSET_MS).

  --restore-expected   start with admission closed; refuse resume until a restore succeeded`

/** `http://127.0.0.1:N` style base URL, loopback only, no trailing slash. */
function loopbackUrl(option: string, text: string): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new UsageError(`${option}: not a URL: ${text}`)
  }
  if (url.protocol !== 'http:') throw new UsageError(`${option}: only http:// URLs (${text})`)
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname))
    throw new UsageError(`${option}: participants are loopback only (${text})`)
  return text.replace(/\/+$/, '')
}

function parseAgentArgs(argv: readonly string[]): {
  port: number
  model: string
  resources: { [K in EnvName]: string }
  restoreExpected: boolean
} {
  const { values, switches } = parseArgs(argv, {
    values: ['--port', '--model', '--resources'],
    switches: ['--restore-expected'],
  })
  const model = values.get('--model')
  if (model === undefined) throw new UsageError('--model URL is required')
  const resourcesText = values.get('--resources')
  if (resourcesText === undefined)
    throw new UsageError(`--resources ${ENV_NAMES.map((e) => `${e}=URL`).join(',')} is required`)
  const resources: { [K in EnvName]?: string } = {}
  for (const pair of resourcesText.split(',')) {
    const at = pair.indexOf('=')
    const env = pair.slice(0, at)
    if (at < 0 || !(ENV_NAMES as readonly string[]).includes(env))
      throw new UsageError(
        `--resources: '${pair}' is not ENV=URL with ENV one of ${ENV_NAMES.join(', ')}`,
      )
    resources[env as EnvName] = loopbackUrl(`--resources ${env}`, pair.slice(at + 1))
  }
  const missing = ENV_NAMES.filter((e) => resources[e] === undefined)
  if (missing.length > 0) throw new UsageError(`--resources is missing ${missing.join(', ')}`)
  const portText = values.get('--port')
  return {
    port: portText === undefined ? 0 : parseIntegerOption('--port', portText, 0, 65535),
    model: loopbackUrl('--model', model),
    resources: resources as { [K in EnvName]: string },
    restoreExpected: switches.has('--restore-expected'),
  }
}

/** `cutover agent`: the agent as its own server process. Resolves once it listens. */
export async function runAgentCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const read = readParticipantArgs('agent', argv, io, AGENT_HELP, parseAgentArgs)
  if (typeof read === 'number') return read
  const { args, controlToken, place, clock } = read
  const note = processTrace('agent')
  const agent = new AgentParticipant(nodeDigest, 'agent', { restoreExpected: args.restoreExpected })
  const app = createAgentApp({
    agent,
    upstreams: { model: args.model, resources: args.resources },
    controlToken,
    ...place,
    clock,
    openDirectory: recordingDirectories(
      (path, create) => new NodeCheckpointDirectory(path, { create }),
      note,
    ),
    pid: process.pid,
    note,
  })
  await serveParticipant(app, args.port, io, (error) =>
    io.stderr(
      `cutover agent: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    ),
  )
  return EXIT.ok
}

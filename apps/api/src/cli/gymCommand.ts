import { randomUUID } from 'node:crypto'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import type { EnvName } from '@cutover/core'
import { ENV_NAMES } from '@cutover/core'
import { NodeCheckpointDirectory, nodeDigest } from '@cutover/core/adapters'
import { createParticipants } from '../gym/defaultEnvironments.ts'
import { createGymSubApp } from '../gym/mountGym.ts'
import { closeOnSignals } from '../process/closeOnSignals.ts'
import { exitWithParent } from '../participants/exitWithParent.ts'
import { processTrace } from '../participants/processTrace.ts'
import { recordingDirectories } from '../participants/recordingDirectories.ts'
import type { CliIo } from '../process/io.ts'
import { readParticipantArgs } from './readParticipantArgs.ts'
import { EXIT, UsageError } from '../process/io.ts'
import { parseArgs, parseIntegerOption } from './parseArgs.ts'
import { unknownNameMessage } from '@cutover/core/contracts'

export const GYM_HELP = `usage: cutover gym ENV [--port N] [--restore-expected]

Serves one environment (blackjack, counter, workplace) as a stand-alone NeMo Gym resources server
at the root of its own port (default 8000; 0 picks a free port; HOST overrides 127.0.0.1): the
reference routes, bodies and responses, the session cookie cutover_<env>_session, the
/ng-rollout/<capture_key>/ prefix and the execution identity headers.

With CUTOVER_CONTROL_TOKEN set, the resources participant's control routes are mounted under
/ng-control/v1/ (capabilities, resources-checkpoint/{prepare,status,commit,restore,resume,retire})
behind Authorization: Bearer <token>. checkpoint_dir must lie inside the data directory
(CUTOVER_DATA_DIR, or .cutover/ in the working directory; a relative path is taken from there) or,
absolute, under one of the :-separated absolute paths in CUTOVER_CHECKPOINT_ROOTS (which then
replace the data directory). Control bodies may leave schema_version out (version 1), as the real
NeMo-RL controller does; CUTOVER_CLOCK_OFFSET_MS shifts the clock deadlines are compared with
(replaying a recording).

  --restore-expected   start paused; refuse resume until a restore succeeded (needs the token)`

/** Parses `cutover gym` arguments; throws `UsageError` (one line, exit 2). */
function parseGymArgs(argv: readonly string[]): {
  env: EnvName
  port: number
  restoreExpected: boolean
} {
  const { values, switches, positionals } = parseArgs(argv, {
    values: ['--port'],
    switches: ['--restore-expected'],
    positionals: 1,
  })
  const env = positionals[0]
  if (env === undefined) throw new UsageError(`name an environment: ${ENV_NAMES.join(', ')}`)
  if (!(ENV_NAMES as readonly string[]).includes(env))
    throw new UsageError(unknownNameMessage('environment', env, ENV_NAMES))
  const portText = values.get('--port')
  const port = portText === undefined ? 8000 : parseIntegerOption('--port', portText, 0, 65535)
  return { env: env as EnvName, port, restoreExpected: switches.has('--restore-expected') }
}

/** `cutover gym ENV`: one environment as its own resources server. Resolves once it listens. */
export async function runGymCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const read = readParticipantArgs('gym', argv, io, GYM_HELP, parseGymArgs)
  if (typeof read === 'number') return read
  const { args, controlToken, place, clock } = read
  const participant = createParticipants(nodeDigest, {
    restoreExpected: args.restoreExpected,
    only: args.env,
  })[args.env]
  if (participant === undefined) throw new Error(`no participant for ${args.env}`)
  const gym = createGymSubApp({
    env: args.env,
    participant,
    mountPath: '',
    newSessionId: () => randomUUID(),
    controlToken,
    ...place,
    digest: nodeDigest,
    clock,
    openDirectory: recordingDirectories(
      (path, create) => new NodeCheckpointDirectory(path, { create }),
      processTrace(`resources_${args.env}`),
    ),
  })
  const app = new Hono()
  app.route('/', gym)
  app.onError((error, c) => {
    io.stderr(
      `cutover gym: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    )
    // The reference exception middleware: HTTP 500 with the exception's repr as the body.
    return c.body(
      `${error instanceof Error ? error.name : 'Error'}(${JSON.stringify(error instanceof Error ? error.message : String(error))})`,
      500,
    )
  })
  const host = process.env.HOST ?? '127.0.0.1'
  const { server, url } = await new Promise<{ server: ReturnType<typeof serve>; url: string }>(
    (resolve) => {
      const server = serve({ fetch: app.fetch, port: args.port, hostname: host }, (info) =>
        resolve({ server, url: `http://${host}:${info.port}` }),
      )
    },
  )
  closeOnSignals(server)
  exitWithParent()
  const mode =
    controlToken === undefined
      ? 'no control routes (CUTOVER_CONTROL_TOKEN unset)'
      : args.restoreExpected
        ? 'control routes on; paused until restore'
        : 'control routes on'
  io.stdout(`listening on ${url}\n`)
  io.stderr(`cutover gym ${args.env}: ${mode}\n`)
  return EXIT.ok
}

import { PolicyModel } from '@cutover/core'
import { NodeCheckpointDirectory, nodeDigest } from '@cutover/core/adapters'
import { createModelApp } from '../model/createModelApp.ts'
import { resolveDataDir } from '../nodeAppDeps.ts'
import { processTrace } from '../participants/processTrace.ts'
import { recordingDirectories } from '../participants/recordingDirectories.ts'
import { serveParticipant } from '../participants/serveParticipant.ts'
import type { CliIo } from './io.ts'
import { readParticipantArgs } from './readParticipantArgs.ts'
import { EXIT, UsageError } from './io.ts'
import { parseArgs, parseIntegerOption } from './parseArgs.ts'

export const MODEL_HELP = `usage: cutover model [--port N] [--workers N] [--restore-expected]

Serves the policy model participant (server name "policy") on 127.0.0.1 (--port 0 or absent: a
free port, printed as the first stdout line "listening on http://127.0.0.1:<port>"). Data plane:
POST /v1/responses and /ng-rollout/<capture_key>/v1/responses with the execution identity headers,
answered by the simulator's scripted policy, the call id in x-nemo-gym-model-call-id; refused with
409 checkpoint_parked (retry-after: 1) while admission is closed.

With CUTOVER_CONTROL_TOKEN set, the control routes of PROTOCOL.md §3.2 are mounted under
/ng-control/v1/ (capabilities, model-admission/{pause,status,abort_inflight,resume},
model-checkpoint/{commit,restore}) behind Authorization: Bearer <token>.

  --workers N          worker processes behind the admission coordinator (only 1 so far)
  --restore-expected   start paused; refuse resume until a restore succeeded (needs the token)`

function parseModelArgs(argv: readonly string[]): { port: number; workers: number; restoreExpected: boolean } {
  const { values, switches } = parseArgs(argv, { values: ['--port', '--workers'], switches: ['--restore-expected'] })
  const portText = values.get('--port')
  const workersText = values.get('--workers')
  const workers = workersText === undefined ? 1 : parseIntegerOption('--workers', workersText, 1, 16)
  if (workers > 1) throw new UsageError('--workers N ≥ 2 (worker processes behind the coordinator) is not implemented yet; use 1')
  return { port: portText === undefined ? 0 : parseIntegerOption('--port', portText, 0, 65535), workers, restoreExpected: switches.has('--restore-expected') }
}

/** `cutover model`: the policy model as its own server process. Resolves once it listens. */
export async function runModelCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const read = readParticipantArgs('model', argv, io, MODEL_HELP, parseModelArgs)
  if (typeof read === 'number') return read
  const { args, controlToken } = read
  // A replacement process issues its call ids as generation 1 (`policy-call-g1-…`), as the simulator's
  // restored model does, so ids stay unique across the restore (invariant call-id-unique).
  const note = processTrace('policy_model')
  const model = new PolicyModel(nodeDigest, { serverName: 'policy', workers: args.workers, restoreExpected: args.restoreExpected, generation: args.restoreExpected ? 1 : 0 })
  const app = createModelApp({
    model,
    controlToken,
    dataDir: resolveDataDir(),
    clock: { now: () => Date.now() },
    openDirectory: recordingDirectories((path, create) => new NodeCheckpointDirectory(path, { create }), note),
    pid: process.pid,
    digest: nodeDigest,
    note,
  })
  await serveParticipant(app, args.port, io, (error) => io.stderr(`cutover model: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`))
  return EXIT.ok
}

import { PolicyModel } from '@cutover/core'
import { NodeCheckpointDirectory, nodeDigest } from '@cutover/core/adapters'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ChangeSignal } from '../model/ChangeSignal.ts'
import { createModelApp } from '../model/createModelApp.ts'
import { ModelWorkerPool } from '../model/ModelWorkerPool.ts'
import { processTrace } from '../participants/processTrace.ts'
import { recordingDirectories } from '../participants/recordingDirectories.ts'
import { serveParticipant } from '../participants/serveParticipant.ts'
import type { CliIo } from '../process/io.ts'
import { readParticipantArgs } from './readParticipantArgs.ts'
import { EXIT, UsageError } from '../process/io.ts'
import { parseArgs, parseIntegerOption } from './parseArgs.ts'

export const MODEL_HELP = `usage: cutover model [--port N] [--workers N] [--restore-expected]

Serves the policy model participant (server name "policy") on 127.0.0.1 (--port 0 or absent: a
free port, printed as the first stdout line "listening on http://127.0.0.1:<port>"). Data plane:
POST /v1/responses and /ng-rollout/<capture_key>/v1/responses with the execution identity headers
(x-nemo-gym-* or the older x-ng-*), a Cutover agent's body or a plain OpenAI Responses body,
answered by the simulator's scripted policy, the call id in x-nemo-gym-model-call-id; refused with
409 checkpoint_parked (retry-after: 1) while admission is closed.

With CUTOVER_CONTROL_TOKEN set, the control routes of docs/protocol.md §3.2 are mounted under
/ng-control/v1/ (capabilities, model-admission/{pause,status,abort_inflight,resume},
model-checkpoint/{commit,restore}) behind Authorization: Bearer <token>; a commit without
continuation_roots takes the agent's from the checkpoint directory. checkpoint_dir and the clock as
for cutover gym (CUTOVER_CHECKPOINT_ROOTS, CUTOVER_CLOCK_OFFSET_MS).

  --workers N          N ≥ 2: N worker OS processes (cutover model-worker) behind the admission
                       coordinator of docs/protocol.md §4.6; this process admits, keeps the ledger
                       and speaks the control routes, the workers generate. Close freezes the
                       connected membership (a worker gone at close: 409 missing_workers), a worker
                       joining while admission is not accepting is refused
                       (worker_registration_rejected), paused only once every worker acknowledged
                       with nothing in flight. GET / lists the workers and their pids.
  --coordinator-socket PATH
                       the coordinator's Unix socket (default: a private temporary one)
  --restore-expected   start paused; refuse resume until a restore succeeded (needs the token)`

function parseModelArgs(argv: readonly string[]): {
  port: number
  workers: number
  socket: string | undefined
  restoreExpected: boolean
} {
  const { values, switches } = parseArgs(argv, {
    values: ['--port', '--workers', '--coordinator-socket'],
    switches: ['--restore-expected'],
  })
  const portText = values.get('--port')
  const workersText = values.get('--workers')
  const workers =
    workersText === undefined ? 1 : parseIntegerOption('--workers', workersText, 1, 16)
  const socket = values.get('--coordinator-socket')
  if (socket !== undefined && workers < 2)
    throw new UsageError('--coordinator-socket needs --workers N ≥ 2')
  if (socket === '') throw new UsageError('--coordinator-socket needs a path')
  return {
    port: portText === undefined ? 0 : parseIntegerOption('--port', portText, 0, 65535),
    workers,
    socket,
    restoreExpected: switches.has('--restore-expected'),
  }
}

/** `cutover model`: the policy model as its own server process. Resolves once it listens. */
export async function runModelCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const read = readParticipantArgs('model', argv, io, MODEL_HELP, parseModelArgs)
  if (typeof read === 'number') return read
  const { args, controlToken, place, clock } = read
  // A replacement process issues its call ids as generation 1 (`policy-call-g1-…`), as the
  // simulator's restored model does, so ids stay unique across the restore (invariant
  // call-id-unique).
  const note = processTrace('policy_model')
  const model = new PolicyModel(nodeDigest, {
    serverName: 'policy',
    workers: args.workers,
    restoreExpected: args.restoreExpected,
    generation: args.restoreExpected ? 1 : 0,
  })
  const signal = new ChangeSignal()
  let pool: ModelWorkerPool | undefined
  if (args.workers > 1) {
    const privateDir =
      args.socket === undefined ? mkdtempSync(join(tmpdir(), 'cutover-coordinator-')) : undefined
    pool = new ModelWorkerPool(
      model,
      args.workers,
      args.socket ?? join(privateDir as string, 'coordinator.sock'),
      signal,
      note,
    )
    const started = pool
    process.once('exit', () => {
      started.stop()
      if (privateDir !== undefined) rmSync(privateDir, { recursive: true, force: true })
    })
    await pool.start({})
  }
  const app = createModelApp({
    model,
    signal,
    ...(pool === undefined ? {} : { pool }),
    controlToken,
    ...place,
    clock,
    openDirectory: recordingDirectories(
      (path, create) => new NodeCheckpointDirectory(path, { create }),
      note,
    ),
    pid: process.pid,
    digest: nodeDigest,
    note,
  })
  await serveParticipant(app, args.port, io, (error) =>
    io.stderr(
      `cutover model: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    ),
  )
  return EXIT.ok
}

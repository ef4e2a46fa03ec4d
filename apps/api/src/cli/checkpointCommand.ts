import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import type { JsonValue } from '@cutover/core'
import { ENV_NAMES } from '@cutover/core'
import type { FleetUrls } from '../controller/discoverFleet.ts'
import { runCheckpointHalf } from '../controller/runCheckpointHalf.ts'
import { resolveDataDir } from '../nodeAppDeps.ts'
import type { ControlCallRecord } from '../controller/controlCall.ts'
import { ANSWERS, checkAnswer } from '../controller/answerSchemas.ts'
import { callSite, controlCall } from '../controller/controlCall.ts'
import { controlTokenFromEnv } from '../participants/controlTokenFromEnv.ts'
import type { CliIo } from '../process/io.ts'
import { EXIT, UsageError } from '../process/io.ts'
import { parseArgs, parseIntegerOption, wantsHelp } from './parseArgs.ts'
import { unknownNameMessage } from '@cutover/core/contracts'

export const CHECKPOINT_OPERATIONS = [
  'prepare',
  'commit',
  'restore',
  'resume',
  'abort',
  'status',
] as const
type Operation = (typeof CHECKPOINT_OPERATIONS)[number]

export const CHECKPOINT_HELP = `usage: cutover checkpoint prepare|commit|restore|resume|abort|status --fleet FILE --id CK [--dir D] [--deadline-ms N] [--json]

Sends one checkpoint operation to every participant a fleet file lists ({"model": [URL…],
"agent": [URL…], "resources": {"<name>": URL…}}), with the token from CUTOVER_CONTROL_TOKEN (never
from the file). prepare: agents, then models (long-polled until paused), then resources; a refusal
aborts (every participant a prepare was sent to is resumed, dependencies first). resume / abort:
models and resources before agents (a finished id's stale_checkpoint is recorded as
already_finished; abort records invalid_phase as already_accepting). status: each
participant's capabilities phase. commit (after a prepare): agent, then model (with the agent's
continuation roots), then resources commit into checkpoint_dir CK, and the controller publishes the
aggregate manifest, the token-store snapshot and checkpoint.json last; a failed commit aborts.
restore (into fresh --restore-expected participants): checkpoint.json and the aggregate manifest
are verified, the committed participant set compared with the fleet's, then model, agent and
resources restore and stay paused until resume; a refused restore resumes every participant it was
sent to. commit and restore need one model, one agent and the resources blackjack, counter and
workplace; --dir D is the participants' shared data directory on this machine (default
CUTOVER_DATA_DIR or .cutover/), the checkpoint is D/CK, sent as an absolute checkpoint_dir (a
participant accepts it under its CUTOVER_CHECKPOINT_ROOTS). Every answer must fit what the
controller reads of it: one that does not is participant_protocol_error (naming the participant,
route and field) and the operation aborts as on any refusal. Exit 0 success, 1 refused or failed,
2 usage or input (bad fleet file, unknown or unreachable participant, missing token).`

const url = z
  .string()
  .regex(
    /^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d{1,5}\/?$/,
    'a loopback http://127.0.0.1:PORT URL',
  )
const fleetFileSchema = z.strictObject({
  model: z.array(url).min(1).max(16),
  agent: z.array(url).min(1).max(16),
  resources: z.record(z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/), url),
})

interface Target {
  readonly participant: string
  readonly kind: 'model' | 'agent' | 'resources'
  readonly url: string
}

interface ParticipantAnswer {
  readonly participant: string
  readonly url: string
  readonly status: number | null
  readonly result?: JsonValue
  readonly error?: { readonly code: string; readonly message: string }
  /** commit and restore: the controller's call (`agent.commit`, `model.restore`…). */
  readonly operation?: string
}

function readFleet(path: string): Target[] {
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new UsageError(
      `--fleet ${path}: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
  const parsed = fleetFileSchema.safeParse(raw)
  if (!parsed.success)
    throw new UsageError(
      `--fleet ${path}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; ')}`,
    )
  const strip = (u: string) => u.replace(/\/+$/, '')
  const f = parsed.data
  return [
    ...f.model.map((u, i): Target => ({
      participant: f.model.length === 1 ? 'policy_model' : `policy_model_${i}`,
      kind: 'model',
      url: strip(u),
    })),
    ...Object.entries(f.resources)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, u]): Target => ({
        participant: `resources_${name}`,
        kind: 'resources',
        url: strip(u),
      })),
    ...f.agent.map((u, i): Target => ({
      participant: f.agent.length === 1 ? 'agent' : `agent_${i}`,
      kind: 'agent',
      url: strip(u),
    })),
  ]
}

/** Each kind's routes and the schema its prepare answer must fit (every resume: `resumed`). */
const ROUTES = {
  model: {
    prepare: 'model-admission/pause',
    resume: 'model-admission/resume',
    component: 'responses_api_models',
    prepared: ANSWERS.modelAdmission,
  },
  agent: {
    prepare: 'agent-checkpoint/prepare',
    resume: 'agent-checkpoint/resume',
    component: 'responses_api_agents',
    prepared: ANSWERS.agentStatus,
  },
  resources: {
    prepare: 'resources-checkpoint/prepare',
    resume: 'resources-checkpoint/resume',
    component: 'resources_servers',
    prepared: ANSWERS.resourcesPrepare,
  },
} as const

/** `cutover checkpoint OP`: one checkpoint operation against the participants of a fleet file. */
export async function runCheckpointCommand(argv: readonly string[], io: CliIo): Promise<number> {
  if (wantsHelp(argv)) {
    io.stdout(`${CHECKPOINT_HELP}\n`)
    return EXIT.ok
  }
  let op: Operation
  let targets: Target[]
  let id: string
  let deadlineMs: number
  let json: boolean
  let token: string
  let dataDir: string
  try {
    const { values, switches, positionals } = parseArgs(argv, {
      values: ['--fleet', '--id', '--dir', '--deadline-ms'],
      switches: ['--json'],
      positionals: 1,
    })
    const name = positionals[0]
    if (name === undefined || !(CHECKPOINT_OPERATIONS as readonly string[]).includes(name))
      throw new UsageError(
        name === undefined
          ? `name an operation: ${CHECKPOINT_OPERATIONS.join(', ')}`
          : unknownNameMessage('operation', name, CHECKPOINT_OPERATIONS),
      )
    op = name as Operation
    const fleet = values.get('--fleet')
    if (fleet === undefined) throw new UsageError('--fleet FILE is required')
    const cid = values.get('--id')
    if (cid === undefined || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(cid))
      throw new UsageError('--id CK is required (1–128 of [A-Za-z0-9._-])')
    id = cid
    const deadlineText = values.get('--deadline-ms')
    deadlineMs =
      deadlineText === undefined
        ? 30_000
        : parseIntegerOption('--deadline-ms', deadlineText, 1, 3_600_000)
    json = switches.has('--json')
    const t = controlTokenFromEnv()
    if (t === undefined)
      throw new UsageError(
        'CUTOVER_CONTROL_TOKEN is not set (the token comes from the environment, never from the fleet file)',
      )
    token = t
    targets = readFleet(fleet)
    dataDir = resolve(values.get('--dir') ?? resolveDataDir())
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    io.stderr(`cutover checkpoint: ${error.message}\n`)
    return EXIT.usage
  }
  const calls: ControlCallRecord[] = []
  const record = (r: ControlCallRecord): void => void calls.push(r)
  if (op === 'commit' || op === 'restore') return runHalf(op, targets, token, id, dataDir, json, io)
  const answers: ParticipantAnswer[] = []
  const deadlineTs = (Date.now() + deadlineMs) / 1000
  const body = { schema_version: 1, checkpoint_id: id, deadline_ts: deadlineTs }

  // Discovery first: nothing is sent to any participant unless every one answers as its kind.
  for (const t of targets) {
    const caps = checkAnswer(
      await controlCall(t, token, 'GET', 'capabilities', undefined, record, 10_000),
      ANSWERS.capabilities,
      callSite(t, 'GET', 'capabilities'),
    )
    if (!caps.ok || caps.value.component !== ROUTES[t.kind].component) {
      const why = caps.ok
        ? `${t.participant} (${t.url}) GET /ng-control/v1/capabilities: component ${JSON.stringify(caps.value.component)}, expected ${ROUTES[t.kind].component}`
        : caps.error.message
      io.stderr(`cutover checkpoint: ${why}\n`)
      return EXIT.usage
    }
    if (op === 'status')
      answers.push({
        participant: t.participant,
        url: t.url,
        status: 200,
        result: caps.value as JsonValue,
      })
  }
  const send = async (t: Target, route: string, answer: z.ZodType): Promise<boolean> => {
    const r = checkAnswer(
      await controlCall(t, token, 'POST', route, body, record),
      answer,
      callSite(t, 'POST', route),
    )
    const status = calls[calls.length - 1]?.status ?? null
    answers.push(
      r.ok
        ? { participant: t.participant, url: t.url, status, result: r.value as JsonValue }
        : {
            participant: t.participant,
            url: t.url,
            status,
            error: { code: r.error.code, message: r.error.message },
          },
    )
    return r.ok
  }
  const resumeAll = async (only: ReadonlySet<string> | null, abort: boolean): Promise<boolean> => {
    let all = true
    // Dependencies (models, resources) before agents (docs/protocol.md §3.5).
    for (const t of [
      ...targets.filter((x) => x.kind !== 'agent'),
      ...targets.filter((x) => x.kind === 'agent'),
    ]) {
      if (only !== null && !only.has(t.participant)) continue
      const okay = await send(t, ROUTES[t.kind].resume, ANSWERS.resumed)
      const last = answers[answers.length - 1]
      // A finished id is stale_checkpoint for every operation (docs/real-stack.md): the participant
      // already resumed (or aborted) this checkpoint, which is what resume and abort ask for.
      const settled =
        last?.error?.code === 'stale_checkpoint'
          ? 'already_finished'
          : abort && last?.error?.code === 'invalid_phase'
            ? 'already_accepting'
            : null
      if (!okay && settled !== null)
        answers[answers.length - 1] = {
          participant: t.participant,
          url: t.url,
          status: last?.status ?? null,
          result: settled,
        }
      else if (!okay) all = false
    }
    return all
  }

  let success = true
  let phase = op === 'status' ? 'status' : op
  if (op === 'prepare') {
    const sent = new Set<string>()
    for (const kind of ['agent', 'model', 'resources'] as const) {
      for (const t of targets.filter((x) => x.kind === kind)) {
        sent.add(t.participant)
        if (!(await send(t, ROUTES[kind].prepare, ROUTES[kind].prepared))) success = false
        if (success && kind === 'model') {
          const left = Math.max(0, deadlineTs - Date.now() / 1000)
          const s = checkAnswer(
            await controlCall(
              t,
              token,
              'GET',
              `model-admission/status?checkpoint_id=${encodeURIComponent(id)}&wait_state=paused&timeout_s=${left.toFixed(3)}`,
              undefined,
              record,
            ),
            ANSWERS.modelAdmission,
            callSite(t, 'GET', 'model-admission/status'),
          )
          if (!s.ok || s.value.state !== 'paused') {
            answers.push({
              participant: t.participant,
              url: t.url,
              status: null,
              error: {
                code: 'prepare_incomplete',
                message: s.ok
                  ? `${t.participant} is ${String(s.value.state)} at the deadline`
                  : s.error.message,
              },
            })
            success = false
          }
        }
        if (success && kind === 'agent') {
          const left = Math.max(0, deadlineTs - Date.now() / 1000)
          const s = checkAnswer(
            await controlCall(
              t,
              token,
              'GET',
              `agent-checkpoint/status?checkpoint_id=${encodeURIComponent(id)}&wait_ready=1&timeout_s=${left.toFixed(3)}&at_deadline=1`,
              undefined,
              record,
            ),
            ANSWERS.agentStatus,
            callSite(t, 'GET', 'agent-checkpoint/status'),
          )
          if (!s.ok || s.value.ready_to_commit !== true) {
            answers.push({
              participant: t.participant,
              url: t.url,
              status: null,
              error: {
                code: 'agent_prepare_incomplete',
                message: s.ok
                  ? `${t.participant} is not ready to commit at the deadline`
                  : s.error.message,
              },
            })
            success = false
          }
        }
        if (!success) break
      }
      if (!success) break
    }
    if (!success) {
      // Nothing half-applied: every participant a prepare was sent to is resumed.
      await resumeAll(sent, true)
      phase = 'aborted'
    } else phase = 'prepared'
  } else if (op === 'resume' || op === 'abort') {
    success = await resumeAll(null, op === 'abort')
    phase = success ? 'idle' : 'failed'
  }
  const report = { checkpoint_id: id, operation: op, phase, participants: answers }
  if (json) io.stdout(`${JSON.stringify(report)}\n`)
  else {
    io.stdout(`checkpoint ${id} ${op}: ${phase}\n`)
    for (const a of answers)
      io.stdout(
        `  ${a.participant.padEnd(22)} ${a.error === undefined ? 'ok' : `${a.error.code}: ${a.error.message}`}\n`,
      )
  }
  return success ? EXIT.ok : EXIT.failure
}

/** The one model, one agent and three resources servers commit and restore drive, or why not. */
function fleetUrlsOf(targets: readonly Target[]): FleetUrls | string {
  const models = targets.filter((t) => t.kind === 'model')
  const agents = targets.filter((t) => t.kind === 'agent')
  const resources = Object.fromEntries(
    targets
      .filter((t) => t.kind === 'resources')
      .map((t) => [t.participant.slice('resources_'.length), t.url]),
  )
  const names = Object.keys(resources).sort()
  if (
    models.length !== 1 ||
    agents.length !== 1 ||
    names.join(',') !== [...ENV_NAMES].sort().join(',')
  )
    return `commit and restore drive one model, one agent and the resources ${ENV_NAMES.join(', ')} (the fleet file lists ${models.length} model(s), ${agents.length} agent(s), resources ${names.join(', ') || 'none'})`
  return {
    model: (models[0] as Target).url,
    agent: (agents[0] as Target).url,
    resources: resources as FleetUrls['resources'],
  }
}

async function runHalf(
  op: 'commit' | 'restore',
  targets: readonly Target[],
  token: string,
  id: string,
  dataDir: string,
  json: boolean,
  io: CliIo,
): Promise<number> {
  const urls = fleetUrlsOf(targets)
  if (typeof urls === 'string') {
    io.stderr(`cutover checkpoint: ${urls}\n`)
    return EXIT.usage
  }
  const outcome = await runCheckpointHalf(op, urls, token, id, dataDir, () => undefined)
  if (outcome.kind === 'usage') {
    io.stderr(`cutover checkpoint: ${outcome.message}\n`)
    return EXIT.usage
  }
  const urlOf = new Map(targets.map((t) => [t.participant, t.url]))
  const participants: ParticipantAnswer[] = outcome.events
    .filter((e) => e.from === 'controller' && urlOf.has(e.to))
    .map((e) => {
      const p = e.payload as { result?: JsonValue; message?: string } | null
      return e.outcome === 'ok'
        ? {
            participant: e.to,
            url: urlOf.get(e.to) ?? '',
            status: 200,
            ...(p?.result === undefined ? {} : { result: p.result }),
            operation: e.type,
          }
        : {
            participant: e.to,
            url: urlOf.get(e.to) ?? '',
            status: null,
            error: { code: e.outcome, message: p?.message ?? e.outcome },
            operation: e.type,
          }
    })
  const report = {
    checkpoint_id: id,
    operation: op,
    phase: outcome.phase,
    directory: join(dataDir, id),
    ...(outcome.reason === null ? {} : { reason: outcome.reason }),
    participants,
  }
  if (json) io.stdout(`${JSON.stringify(report)}\n`)
  else {
    io.stdout(
      `checkpoint ${id} ${op}: ${outcome.phase}${outcome.reason === null ? '' : ` (${outcome.reason})`} — ${report.directory}\n`,
    )
    for (const a of participants)
      io.stdout(
        `  ${a.participant.padEnd(22)} ${(a.operation ?? '').padEnd(18)} ${a.error === undefined ? 'ok' : `${a.error.code}: ${a.error.message}`}\n`,
      )
  }
  return outcome.ok ? EXIT.ok : EXIT.failure
}

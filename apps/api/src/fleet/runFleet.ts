import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import type { AgentBoundaryRecord, EnvName, ExecutionIdentity, JsonValue, RolloutPlan } from '@cutover/core'
import { Controller, ENV_NAMES, planRollouts, verifyCheckpoint } from '@cutover/core'
import { NodeCheckpointDirectory, nodeDigest } from '@cutover/core/adapters'
import { errorCodeOf, fetchJson } from '../control/fetchJson.ts'
import type { ControlCallRecord } from '../controller/controlCall.ts'
import { controlCall } from '../controller/controlCall.ts'
import { discoverFleet } from '../controller/discoverFleet.ts'
import type { FleetUrls } from '../controller/discoverFleet.ts'
import { HttpFleet } from '../controller/HttpFleet.ts'
import type { ControllerTraceEntry } from '../controller/RealTimeHost.ts'
import { RealTimeHost } from '../controller/RealTimeHost.ts'
import type { WireRecord } from '../participants/processTrace.ts'
import { TRACE_FILE_ENV } from '../participants/processTrace.ts'
import { controllerRecords } from './controllerRecords.ts'
import type { FleetTraceEvent, TraceSource } from './mergeFleetTrace.ts'
import { mergeFleetTrace, readWireFile } from './mergeFleetTrace.ts'
import type { ParticipantProcess } from './spawnParticipant.ts'
import { spawnParticipant } from './spawnParticipant.ts'
import { processAlive } from '../participants/processAlive.ts'

/** One participant process of a fleet run (CONTRACTS.md §9). */
export interface FleetProcess {
  readonly participant: string
  readonly name: string
  readonly pid: number
  readonly port: number
  readonly role: 'original' | 'replacement'
}

/** How each rollout ended over HTTP. */
export interface FleetRolloutResult {
  readonly rollout_id: string
  readonly attempt_index: number
  readonly reward: number
  readonly result_digest: string
  readonly continued: boolean
  readonly retired: boolean
}

export interface FleetRunOptions {
  readonly scenario: 'happy-path' | 'straggler-retirement'
  readonly seed: bigint
  readonly rollouts: number
  /** The participants' data directory (the checkpoint is written to `<dataDir>/<checkpointId>`). */
  readonly dataDir: string
  /** Where every participant process appends the messages it sends (`<participant>-<role>.jsonl`). */
  readonly traceDir: string
  readonly deadlineMs: number
  readonly checkpointId: string
}

export interface FleetRunResult {
  readonly checkpoint_id: string
  readonly directory: string
  readonly outcome: 'completed' | 'aborted' | 'failed'
  readonly reason: string | null
  readonly verified: boolean
  readonly problems: readonly string[]
  readonly processes: readonly FleetProcess[]
  readonly originals_gone: boolean
  readonly rollouts: readonly FleetRolloutResult[]
  readonly retired: readonly string[]
  readonly continued: readonly string[]
  readonly controller_trace: readonly ControllerTraceEntry[]
  readonly control_calls: readonly ControlCallRecord[]
  /** Every process's messages merged into one trace. */
  readonly trace: readonly FleetTraceEvent[]
  readonly wall_ms: number
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Slow generations: every call a little (so the checkpoint finds rollouts mid-flight), the straggler's far past the deadline. */
const MODEL_DELAY_MS = 40
const STRAGGLER_DELAY_MS = 60_000
const CHECKPOINT_AFTER_MS = 300

/**
 * `cutover fleet`: every participant as its own OS process on free loopback ports (the token
 * generated here, passed in the environment, never printed), rollouts dispatched through the
 * agent's `/run`, the checkpoint taken by the core `Controller` over the `HttpFleet`, the originals
 * killed once it is published, `--restore-expected` replacements started, restored and resumed,
 * and the continued (and retired) rollouts run to their end on the replacements.
 */
export async function runFleet(options: FleetRunOptions, running: ParticipantProcess[]): Promise<FleetRunResult> {
  const t0 = Date.now()
  const token = randomBytes(24).toString('hex')
  const env = { CUTOVER_CONTROL_TOKEN: token, CUTOVER_DATA_DIR: options.dataDir }
  const processes: FleetProcess[] = []
  const traceFiles: string[] = []
  /** The messages this process sends as the dispatcher (run.dispatch, agent.acknowledge). */
  const dispatched: WireRecord[] = []
  const noteDispatch = (type: string, payload: { [key: string]: JsonValue }, outcome: string, at = Date.now()): void =>
    void dispatched.push({ from: 'controller', to: 'agent', type, payload, outcome, wall_ms: at, pid: process.pid, seq: dispatched.length })
  const calls: ControlCallRecord[] = []
  const record = (r: ControlCallRecord): void => void calls.push(r)

  async function startFleet(role: 'original' | 'replacement'): Promise<{ urls: FleetUrls; procs: ParticipantProcess[] }> {
    const extra = role === 'replacement' ? ['--restore-expected'] : []
    const start = async (participant: string, args: string[]): Promise<ParticipantProcess> => {
      const traceFile = join(options.traceDir, `${participant}-${role}.jsonl`)
      traceFiles.push(traceFile)
      const p = await spawnParticipant([...args, ...extra], { ...env, [TRACE_FILE_ENV]: traceFile })
      running.push(p)
      processes.push({ participant, name: participant, pid: p.pid, port: p.port, role })
      return p
    }
    const [model, ...gyms] = await Promise.all([start('policy_model', ['model']), ...ENV_NAMES.map((e) => start(`resources_${e}`, ['gym', e, '--port', '0']))])
    const resources = Object.fromEntries(ENV_NAMES.map((e, i) => [e, (gyms[i] as ParticipantProcess).url])) as { [K in EnvName]: string }
    const agent = await start('agent', ['agent', '--model', (model as ParticipantProcess).url, '--resources', ENV_NAMES.map((e) => `${e}=${resources[e]}`).join(',')])
    return { urls: { model: (model as ParticipantProcess).url, agent: agent.url, resources }, procs: [model as ParticipantProcess, ...gyms, agent] }
  }

  const discover = async (urls: FleetUrls, generation: number): Promise<HttpFleet> => {
    const endpoints = await discoverFleet(urls, token, record)
    if (!endpoints.ok) throw new Error(endpoints.error.message)
    return new HttpFleet(endpoints.value, { token, generation, checkpointDir: (cid) => cid, digest: nodeDigest, record })
  }

  const originals = await startFleet('original')
  let fleet = await discover(originals.urls, 0)
  const plans = planRollouts(options.seed, options.rollouts)
  const straggler = options.scenario === 'straggler-retirement' ? plans[Math.min(1, plans.length - 1)]?.rollout_id : undefined
  const results = new Map<string, FleetRolloutResult>()
  const attempts = new Map<string, number>()
  const continued = new Set<string>()
  const retiredSet = new Set<string>()
  const refused: { plan: RolloutPlan; attempt: number }[] = []

  /** One `/run` on the current agent; completed results are acknowledged at once (exact receipt). */
  async function dispatch(plan: RolloutPlan, attempt: number, slow: boolean): Promise<void> {
    attempts.set(plan.rollout_id, attempt)
    const agentUrl = fleet.endpoints.agent.url
    const body = { rollout_id: plan.rollout_id, attempt_index: attempt, environment: plan.env, seed: plan.seed.toString(), task: plan.task, model_delay_ms: slow ? STRAGGLER_DELAY_MS : MODEL_DELAY_MS }
    const sent = Date.now()
    const r = await fetchJson(`${agentUrl}/run`, { method: 'POST', body, timeoutMs: 300_000 })
    const refusal = r.ok ? errorCodeOf(r.body) : r.code
    // A /run still open when its process was killed ends in a transport error: it was parked, not refused.
    noteDispatch('run.dispatch', { rollout_id: plan.rollout_id, attempt_index: attempt, environment: plan.env, continued: attempt > 0, generation: null }, refusal === 'agent_admission_closed' ? refusal : 'ok', sent)
    if (r.ok && errorCodeOf(r.body) === 'agent_admission_closed') {
      // Refused before it began (admission closed for the checkpoint): dispatched again after resume.
      refused.push({ plan, attempt })
      return
    }
    if (!r.ok || r.status !== 200) return // parked then killed with its process, or retired: the checkpoint decides what continues
    const answer = r.body as { reward: number; receipt: { result_digest: string } | null }
    if (answer.receipt === null) return
    const ackSent = Date.now()
    const ack = await controlCall({ participant: 'agent', url: agentUrl }, token, 'POST', 'agent-checkpoint/acknowledge', { schema_version: 1, receipt: answer.receipt }, record)
    noteDispatch('agent.acknowledge', { receipts: [answer.receipt as unknown as JsonValue], idempotent: ack.ok && (ack.value as { idempotent?: unknown }).idempotent === true ? 1 : 0 }, ack.ok ? 'ok' : ack.error.code, ackSent)
    if (!ack.ok) return
    results.set(plan.rollout_id, { rollout_id: plan.rollout_id, attempt_index: attempt, reward: answer.reward, result_digest: answer.receipt.result_digest, continued: continued.has(plan.rollout_id), retired: retiredSet.has(plan.rollout_id) })
  }

  let resumed: (value: { restored: readonly AgentBoundaryRecord[] | null; retired: readonly ExecutionIdentity[] }) => void = () => undefined
  const afterResume = new Promise<{ restored: readonly AgentBoundaryRecord[] | null; retired: readonly ExecutionIdentity[] }>((resolve) => (resumed = resolve))
  let originalsGone = false
  const host = new RealTimeHost({
    dataDir: options.dataDir,
    digest: nodeDigest,
    fleet,
    openDirectory: (path, create) => new NodeCheckpointDirectory(path, { create }),
    published: async () => {
      // The checkpoint is durable: the original processes go, replacements boot expecting a restore.
      await Promise.all(originals.procs.map((p) => p.stop()))
      originalsGone = originals.procs.every((p) => !processAlive(p.pid))
      const replacements = await startFleet('replacement')
      fleet = await discover(replacements.urls, 1)
      return fleet
    },
    // Every rollout is dispatched at the start; the agent refuses the late ones (agent_admission_closed).
    freezeDispatch: () => undefined,
    afterResume: (restored, retired) => resumed({ restored, retired }),
    liveMembership: () =>
      plans.filter((p) => attempts.has(p.rollout_id)).map((p) => ({ rollout_id: p.rollout_id, attempt_index: attempts.get(p.rollout_id) ?? 0, state: results.has(p.rollout_id) ? ('terminal' as const) : ('running' as const) })),
  })
  const controller = new Controller(host, options.deadlineMs, {}, 1)

  const firstRuns = plans.map((p) => dispatch(p, 0, p.rollout_id === straggler))
  // Late enough that every rollout is inside a model call (the straggler's never ends on its own).
  await sleep(CHECKPOINT_AFTER_MS)
  controller.begin(options.checkpointId)
  while (controller.stage === 'preparing' || controller.stage === 'retiring') {
    if (!host.busy && controller.waiting) {
      await host.liveFleet.refreshAdmission(options.checkpointId, 0.2)
      if (!host.busy) controller.poke()
    }
    await sleep(20)
    if (host.failure !== null) throw host.failure
  }
  let done = false
  const watch = (async () => {
    while (!done) {
      await sleep(50)
      if (host.failure !== null) throw host.failure
    }
  })()
  const { restored, retired } = await Promise.race([afterResume, watch.then(() => afterResume)]).finally(() => (done = true))
  for (const id of retired) retiredSet.add(id.rollout_id)
  const byId = new Map(plans.map((p) => [p.rollout_id, p]))
  const second: Promise<void>[] = []
  if (restored !== null) {
    for (const rec of restored) {
      continued.add(rec.rollout_id)
      const plan = byId.get(rec.rollout_id)
      if (plan !== undefined) second.push(dispatch(plan, rec.attempt_index + 1, false))
    }
    for (const id of retired) {
      const plan = byId.get(id.rollout_id)
      if (plan !== undefined) second.push(dispatch(plan, id.attempt_index + 1, false))
    }
  }
  // The originals' /run requests end when their process does (or complete, on an abort); then
  // the rollouts refused while admission was closed start (on the replacements after a restore).
  await Promise.all(firstRuns)
  second.push(...refused.splice(0).map((x) => dispatch(x.plan, x.attempt, false)))
  await Promise.all(second)
  const directory = join(options.dataDir, options.checkpointId)
  const sources: TraceSource[] = [
    { rank: 0, records: controllerRecords(host.trace, calls, process.pid) },
    { rank: 1, records: dispatched },
    ...traceFiles.map((file, i) => ({ rank: 2 + i, records: readWireFile(file) })),
  ]
  const report = controller.stage === 'done' ? verifyCheckpoint(new NodeCheckpointDirectory(directory, { create: false }), nodeDigest) : null
  return {
    checkpoint_id: options.checkpointId,
    directory,
    outcome: controller.stage === 'done' ? 'completed' : 'aborted',
    reason: controller.stage === 'done' ? null : (host.trace.find((e) => e.type === 'controller.abort')?.payload as { reason?: string } | null)?.reason ?? 'aborted',
    verified: report !== null && report.problems.length === 0,
    problems: report === null ? [] : report.problems.map((p) => `${p.path}: ${p.message}`),
    processes,
    originals_gone: originalsGone,
    rollouts: plans.map((p) => results.get(p.rollout_id) ?? { rollout_id: p.rollout_id, attempt_index: attempts.get(p.rollout_id) ?? 0, reward: 0, result_digest: '', continued: continued.has(p.rollout_id), retired: retiredSet.has(p.rollout_id) }),
    retired: [...retiredSet].sort(),
    continued: [...continued].sort(),
    controller_trace: host.trace,
    control_calls: calls,
    trace: mergeFleetTrace(sources),
    wall_ms: Date.now() - t0,
  }
}

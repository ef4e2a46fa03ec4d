import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type {
  AgentBoundaryRecord,
  EnvName,
  ExecutionIdentity,
  JsonValue,
  RolloutPlan,
} from '@cutover/core'
import {
  Controller,
  ENV_NAMES,
  corruptCheckpoint,
  planRollouts,
  verifyCheckpoint,
} from '@cutover/core'
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
import { mergeFleetTrace, readWireFile, withoutDeliveredAnswers } from './mergeFleetTrace.ts'
import type { ParticipantProcess } from './spawnParticipant.ts'
import { sendStaleRequests } from './sendStaleRequests.ts'
import { spawnParticipant } from './spawnParticipant.ts'
import type { StartedWorker } from './twoWorkerAdmission.ts'
import { modelWorkers, startModelWorker, waitForWorker } from './twoWorkerAdmission.ts'
import { processAlive } from '../participants/processAlive.ts'

/** One participant process of a fleet run (docs/fleet.md). */
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

/** The scenarios `cutover fleet` runs across real processes (the others are simulator-only). */
export const FLEET_SCENARIOS = [
  'happy-path',
  'straggler-retirement',
  'stale-attempt-fenced',
  'corrupt-snapshot',
  'two-worker-admission',
] as const
export type FleetScenario = (typeof FLEET_SCENARIOS)[number]

export interface FleetRunOptions {
  readonly scenario: FleetScenario
  readonly seed: bigint
  readonly rollouts: number
  /** The participants' data directory (the checkpoint is written to `<dataDir>/<checkpointId>`). */
  readonly dataDir: string
  /**
   * Where every participant process appends the messages it sends (`<participant>-<role>.jsonl`).
   */
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
  /**
   * What the scenario did besides the cycle (a worker stopped, a registration refused…), in order.
   */
  readonly notes: readonly string[]
  /** Empty when the scenario's story happened as told. */
  readonly scenario_problems: readonly string[]
  readonly wall_ms: number
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Slow generations: every call a little (so the checkpoint finds rollouts mid-flight), the
 * straggler's far past the deadline.
 */
const MODEL_DELAY_MS = 40
const STRAGGLER_DELAY_MS = 60_000
const CHECKPOINT_AFTER_MS = 300
/**
 * stale-attempt-fenced and corrupt-snapshot: the first counter rollout (always three model calls:
 * add, add, read) is the target. Its calls are slow enough that the checkpoint, begun once its
 * boundary names its first call, finds it inside the second (drained well before the deadline):
 * its committed lineage then names a call (restore fences attempt N in the model too) and its
 * resources session is in the checkpoint (a snapshot to flip).
 */
const TARGET_DELAY_MS = 400
const TARGET_WAIT_MS = 20_000

/**
 * `cutover fleet`: every participant as its own OS process on free loopback ports (the token
 * generated here, passed in the environment, never printed), rollouts dispatched through the
 * agent's `/run`, the checkpoint taken by the core `Controller` over the `HttpFleet`, the originals
 * killed once it is published, `--restore-expected` replacements started, restored and resumed,
 * and the continued (and retired) rollouts run to their end on the replacements.
 */
export async function runFleet(
  options: FleetRunOptions,
  running: ParticipantProcess[],
): Promise<FleetRunResult> {
  const t0 = Date.now()
  const token = randomBytes(24).toString('hex')
  const env = { CUTOVER_CONTROL_TOKEN: token, CUTOVER_DATA_DIR: options.dataDir }
  const processes: FleetProcess[] = []
  const notes: string[] = []
  /** Why the scenario's own story did not happen (a refusal that did not come…). */
  const scenarioProblems: string[] = []
  const twoWorkers = options.scenario === 'two-worker-admission'
  /** Scenarios whose first checkpoint is aborted on purpose and retaken. */
  const retakes = twoWorkers || options.scenario === 'corrupt-snapshot'
  const socketDir = mkdtempSync(join(tmpdir(), 'cutover-fleet-'))
  const extraWorkers: StartedWorker[] = []
  const traceFiles: string[] = []
  let replacementStarts = 0
  /**
   * The messages this process sends as the dispatcher (run.dispatch, agent.acknowledge), and the
   * answers of its `/run` calls (run.complete) as they are delivered to it.
   */
  const dispatched: WireRecord[] = []
  /** The `/run` answers the dispatcher noted on delivery, as `<rollout_id>.a<attempt>`. */
  const delivered = new Set<string>()
  const noteDispatch = (
    type: string,
    payload: { [key: string]: JsonValue },
    outcome: string,
    at = Date.now(),
    route: { from: string; to: string } = { from: 'controller', to: 'agent' },
  ): void =>
    void dispatched.push({
      ...route,
      type,
      payload,
      outcome,
      wall_ms: at,
      pid: process.pid,
      seq: dispatched.length,
    })
  const calls: ControlCallRecord[] = []
  const record = (r: ControlCallRecord): void => void calls.push(r)

  async function startFleet(
    role: 'original' | 'replacement',
  ): Promise<{ urls: FleetUrls; procs: ParticipantProcess[] }> {
    const extra = role === 'replacement' ? ['--restore-expected'] : []
    const set = role === 'replacement' ? ++replacementStarts : 1
    const start = async (participant: string, args: string[]): Promise<ParticipantProcess> => {
      // One file per process: a scenario that starts replacements twice (corrupt-snapshot) numbers
      // the second set.
      const traceFile = join(
        options.traceDir,
        `${participant}-${role}${set > 1 ? `-${set}` : ''}.jsonl`,
      )
      traceFiles.push(traceFile)
      const p = await spawnParticipant([...args, ...extra], { ...env, [TRACE_FILE_ENV]: traceFile })
      running.push(p)
      processes.push({ participant, name: participant, pid: p.pid, port: p.port, role })
      return p
    }
    const modelArgs = twoWorkers
      ? ['model', '--workers', '2', '--coordinator-socket', join(socketDir, `${role}.sock`)]
      : ['model']
    const [model, ...gyms] = await Promise.all([
      start('policy_model', modelArgs),
      ...ENV_NAMES.map((e) => start(`resources_${e}`, ['gym', e, '--port', '0'])),
    ])
    for (const w of await modelWorkers((model as ParticipantProcess).url)) {
      if (w.pid !== null)
        processes.push({
          participant: `model_worker_${w.worker}`,
          name: `model_worker_${w.worker}`,
          pid: w.pid,
          port: 0,
          role,
        })
    }
    const resources = Object.fromEntries(
      ENV_NAMES.map((e, i) => [e, (gyms[i] as ParticipantProcess).url]),
    ) as { [K in EnvName]: string }
    const agent = await start('agent', [
      'agent',
      '--model',
      (model as ParticipantProcess).url,
      '--resources',
      ENV_NAMES.map((e) => `${e}=${resources[e]}`).join(','),
    ])
    return {
      urls: { model: (model as ParticipantProcess).url, agent: agent.url, resources },
      procs: [model as ParticipantProcess, ...gyms, agent],
    }
  }

  const discover = async (urls: FleetUrls, generation: number): Promise<HttpFleet> => {
    const endpoints = await discoverFleet(urls, token, record)
    if (!endpoints.ok) throw new Error(endpoints.error.message)
    return new HttpFleet(endpoints.value, {
      token,
      generation,
      // Absolute, as the real controller sends it (a participant resolves a relative path itself).
      checkpointDir: (cid) => resolve(options.dataDir, cid),
      digest: nodeDigest,
      record,
    })
  }

  const originals = await startFleet('original')
  const fleet = await discover(originals.urls, 0)
  const plans = planRollouts(options.seed, options.rollouts)
  const straggler =
    options.scenario === 'straggler-retirement'
      ? plans[Math.min(1, plans.length - 1)]?.rollout_id
      : undefined
  const target =
    options.scenario === 'stale-attempt-fenced' || options.scenario === 'corrupt-snapshot'
      ? plans.find((p) => p.env === 'counter')?.rollout_id
      : undefined
  const delayOf = (plan: RolloutPlan): number =>
    plan.rollout_id === straggler
      ? STRAGGLER_DELAY_MS
      : plan.rollout_id === target
        ? TARGET_DELAY_MS
        : MODEL_DELAY_MS
  const results = new Map<string, FleetRolloutResult>()
  const attempts = new Map<string, number>()
  const continued = new Set<string>()
  const retiredSet = new Set<string>()
  const refused: { plan: RolloutPlan; attempt: number }[] = []

  /**
   * One `/run` on the current agent; completed results are acknowledged at once (exact receipt).
   */
  async function dispatch(
    plan: RolloutPlan,
    attempt: number,
    modelDelayMs = MODEL_DELAY_MS,
  ): Promise<void> {
    attempts.set(plan.rollout_id, attempt)
    const agentUrl = host.liveFleet.endpoints.agent.url
    const body = {
      rollout_id: plan.rollout_id,
      attempt_index: attempt,
      environment: plan.env,
      seed: plan.seed.toString(),
      task: plan.task,
      model_delay_ms: modelDelayMs,
    }
    const sent = Date.now()
    const r = await fetchJson(`${agentUrl}/run`, { method: 'POST', body, timeoutMs: 300_000 })
    const refusal = r.ok ? errorCodeOf(r.body) : r.code
    // A /run still open when its process was killed ends in a transport error: it was parked, not
    // refused.
    noteDispatch(
      'run.dispatch',
      {
        rollout_id: plan.rollout_id,
        attempt_index: attempt,
        environment: plan.env,
        continued: attempt > 0,
        generation: null,
      },
      refusal === 'agent_admission_closed' ? refusal : 'ok',
      sent,
    )
    // The answer as it reaches the controller: placed at its delivery, so the merged trace shows
    // what the controller knew when — a result still on its way when the agents are asked to
    // prepare is not one the controller held back (acks-before-prepare). The agent's own record
    // of the same answer (at its sending) is left out of the merge.
    if (r.ok) {
      const answer = r.body as { reward?: unknown; receipt?: unknown }
      const refused = errorCodeOf(r.body)
      delivered.add(`${plan.rollout_id}.a${attempt}`)
      noteDispatch(
        'run.complete',
        {
          rollout_id: plan.rollout_id,
          attempt_index: attempt,
          reward: refused === undefined && typeof answer.reward === 'number' ? answer.reward : 0,
          receipt: refused === undefined ? ((answer.receipt ?? null) as JsonValue) : null,
        },
        refused ?? 'ok',
        Date.now(),
        { from: 'agent', to: 'controller' },
      )
    }
    if (r.ok && errorCodeOf(r.body) === 'agent_admission_closed') {
      // Refused before it began (admission closed for the checkpoint): dispatched again after
      // resume.
      refused.push({ plan, attempt })
      return
    }
    // parked then killed with its process, or retired: the checkpoint decides what continues
    if (!r.ok || r.status !== 200) return
    const answer = r.body as { reward: number; receipt: { result_digest: string } | null }
    if (answer.receipt === null) return
    const ackSent = Date.now()
    const ack = await controlCall(
      { participant: 'agent', url: agentUrl },
      token,
      'POST',
      'agent-checkpoint/acknowledge',
      { schema_version: 1, receipt: answer.receipt },
      record,
    )
    noteDispatch(
      'agent.acknowledge',
      {
        receipts: [answer.receipt as unknown as JsonValue],
        idempotent: ack.ok && (ack.value as { idempotent?: unknown }).idempotent === true ? 1 : 0,
      },
      ack.ok ? 'ok' : ack.error.code,
      ackSent,
    )
    if (!ack.ok) return
    results.set(plan.rollout_id, {
      rollout_id: plan.rollout_id,
      attempt_index: attempt,
      reward: answer.reward,
      result_digest: answer.receipt.result_digest,
      continued: continued.has(plan.rollout_id),
      retired: retiredSet.has(plan.rollout_id),
    })
  }

  type Resumed = {
    restored: readonly AgentBoundaryRecord[] | null
    retired: readonly ExecutionIdentity[]
  }
  let resumed: (value: Resumed) => void = () => undefined
  let afterResume = new Promise<Resumed>((resolve) => (resumed = resolve))
  let originalsGone = false
  const keepOriginals = options.scenario === 'corrupt-snapshot'
  let corruptOnce = options.scenario === 'corrupt-snapshot'
  const replacementSets: ParticipantProcess[][] = []
  const stopOriginals = async (): Promise<void> => {
    await Promise.all(originals.procs.map((p) => p.stop()))
    for (const w of extraWorkers) await w.exited
    // The model's worker processes leave with their coordinator (its socket closes).
    const originalPids = processes.filter((p) => p.role === 'original').map((p) => p.pid)
    for (let waited = 0; waited < 5000 && originalPids.some(processAlive); waited += 50)
      await sleep(50)
    originalsGone = !originalPids.some(processAlive)
  }
  const host = new RealTimeHost({
    dataDir: options.dataDir,
    digest: nodeDigest,
    fleet,
    openDirectory: (path, create) => new NodeCheckpointDirectory(path, { create }),
    published: async (cid) => {
      if (corruptOnce) {
        corruptOnce = false
        // corrupt-snapshot: one byte of the first resources snapshot flips after the commit.
        corruptCheckpoint(
          new NodeCheckpointDirectory(join(options.dataDir, cid), { create: false }),
          [{ namespace: 'resources', index: 0 }],
          (path, offset) => {
            dispatched.push({
              from: 'directory',
              to: 'directory',
              type: 'fault.corrupt_file',
              payload: { checkpoint_id: cid, path, offset },
              outcome: 'ok',
              wall_ms: Date.now(),
              pid: process.pid,
              seq: dispatched.length,
            })
            notes.push(`${cid}: flipped the byte at offset ${offset} of ${path}`)
          },
        )
      }
      // The checkpoint is durable: the original processes go (corrupt-snapshot keeps them until a
      // restore succeeded: an abandoned restore resumes them), replacements boot expecting a
      // restore.
      if (!keepOriginals) await stopOriginals()
      const replacements = await startFleet('replacement')
      replacementSets.push(replacements.procs)
      return discover(replacements.urls, 1)
    },
    // Every rollout is dispatched at the start; the agent refuses the late ones
    // (agent_admission_closed).
    freezeDispatch: () => undefined,
    afterResume: (restored, retired) => resumed({ restored, retired }),
    liveMembership: () =>
      plans
        .filter((p) => attempts.has(p.rollout_id))
        .map((p) => ({
          rollout_id: p.rollout_id,
          attempt_index: attempts.get(p.rollout_id) ?? 0,
          state: results.has(p.rollout_id) ? ('terminal' as const) : ('running' as const),
        })),
  })
  // two-worker-admission retakes the checkpoint once the first is aborted (missing_workers).
  const controller = new Controller(host, options.deadlineMs, {}, retakes ? 2 : 1)

  // two-worker-admission holds half the rollouts back for the retaken checkpoint to find
  // mid-flight.
  const held = retakes ? plans.slice(Math.ceil(plans.length / 2)) : []
  const firstRuns = plans.filter((p) => !held.includes(p)).map((p) => dispatch(p, 0, delayOf(p)))
  // Late enough that every rollout is inside a model call (the straggler's never ends on its own).
  await sleep(CHECKPOINT_AFTER_MS)
  if (target !== undefined) {
    // Not on a clock alone: a loaded machine can take longer than that to commit the target's first
    // boundary after a call.
    const agentTrace = join(options.traceDir, 'agent-original.jsonl')
    const named = (): boolean =>
      readWireFile(agentTrace).some(
        (r) =>
          r.type === 'agent.boundary' &&
          r.payload['rollout_id'] === target &&
          r.payload['last_committed_model_call_id'] !== null,
      )
    for (let waited = 0; waited < TARGET_WAIT_MS && !named(); waited += 50) await sleep(50)
  }
  let outcome: Resumed
  for (let n = 1; ; n++) {
    const cid = n === 1 ? options.checkpointId : `ck-${n}`
    let stopped: number | undefined
    if (twoWorkers && n === 1) {
      // Worker 1 hangs (SIGSTOP): still connected, so the close freezes it as a member, but it
      // never acknowledges.
      stopped =
        (await modelWorkers(originals.urls.model)).find((w) => w.worker === 1)?.pid ?? undefined
      if (stopped !== undefined) process.kill(stopped, 'SIGSTOP')
      notes.push(
        `model worker 1 (pid ${stopped ?? '?'}) stopped before ${cid}: connected, never acknowledges`,
      )
    }
    let closedOnce = false
    controller.begin(cid)
    while (controller.stage === 'preparing' || controller.stage === 'retiring') {
      if (twoWorkers && n === 1 && !closedOnce && host.liveFleet.model.admission === 'draining') {
        closedOnce = true
        // A replacement for worker 1 tries to join while admission is closed: refused.
        const early = startModelWorker(1, join(socketDir, 'original.sock'))
        extraWorkers.push(early)
        const code = await early.exited
        notes.push(
          `replacement worker 1 (pid ${early.pid}) registering during ${cid}: exit ${code}, ${early.stderr().trim() || 'no message'}`,
        )
      }
      if (!host.busy && controller.waiting) {
        await host.liveFleet.refreshAdmission(cid, 0.2)
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
    outcome = await Promise.race([afterResume, watch.then(() => afterResume)]).finally(
      () => (done = true),
    )
    if (!(retakes && controller.canRetry)) break
    // Rollouts retired by the aborted checkpoint start over under their next attempt, on the
    // resumed originals.
    for (const id of outcome.retired) {
      retiredSet.add(id.rollout_id)
      const plan = plans.find((p) => p.rollout_id === id.rollout_id)
      if (plan !== undefined) firstRuns.push(dispatch(plan, id.attempt_index + 1))
    }
    if (twoWorkers) {
      // The hung worker is gone for good; its replacement joins now that admission is accepting
      // again.
      if (stopped !== undefined) process.kill(stopped, 'SIGKILL')
      await waitForWorker(originals.urls.model, 1, false)
      const joined = startModelWorker(1, join(socketDir, 'original.sock'))
      extraWorkers.push(joined)
      const w = await waitForWorker(originals.urls.model, 1, true)
      notes.push(
        `${cid} aborted; worker 1 replaced by pid ${joined.pid}: ${w === undefined ? 'did NOT join' : 'joined while accepting'}`,
      )
      processes.push({
        participant: 'model_worker_1',
        name: 'model_worker_1',
        pid: joined.pid,
        port: 0,
        role: 'original',
      })
    } else {
      // The abandoned restore's fresh processes were resumed; now they are discarded.
      const discarded = replacementSets.pop() ?? []
      await Promise.all(discarded.map((p) => p.stop()))
      const reason =
        (
          host.trace.find((e) => e.type === 'controller.restore_abandoned')?.payload as
            { reason?: string } | undefined
        )?.reason ?? 'aborted'
      notes.push(
        `${cid}: restore abandoned (${reason}); the fresh processes (pids ${discarded.map((p) => p.pid).join(', ')}) discarded, the originals resumed`,
      )
    }
    afterResume = new Promise<Resumed>((resolve) => (resumed = resolve))
    // The rollouts the agent refused during the aborted checkpoint start now, so the retaken one
    // finds them mid-flight.
    firstRuns.push(
      ...refused.splice(0).map((x) => dispatch(x.plan, x.attempt)),
      ...held.splice(0).map((p) => dispatch(p, 0)),
    )
    await sleep(CHECKPOINT_AFTER_MS)
  }
  const { restored, retired } = outcome
  if (keepOriginals && restored !== null) await stopOriginals()
  for (const id of retired) retiredSet.add(id.rollout_id)
  const byId = new Map(plans.map((p) => [p.rollout_id, p]))
  const second: Promise<void>[] = []
  if (restored !== null && options.scenario === 'stale-attempt-fenced') {
    // Delayed requests of attempt N of a continued rollout (the slow target when it continued)
    // reach the new processes. A rollout whose committed lineage names a model call, so restore
    // fenced its attempt N in the model too.
    const stale =
      restored.find((r) => r.rollout_id === target && r.last_committed_model_call_id !== null) ??
      restored.find((r) => r.last_committed_model_call_id !== null)
    const plan = stale === undefined ? undefined : byId.get(stale.rollout_id)
    if (stale !== undefined && plan !== undefined) {
      const live = host.liveFleet.endpoints
      const records = await sendStaleRequests(
        { rollout_id: stale.rollout_id, attempt_index: stale.attempt_index },
        plan,
        { model: live.model.url, agent: live.agent.url, resources: live.resources[plan.env].url },
        process.pid,
        () => dispatched.length,
      )
      dispatched.push(...records)
      for (const r of records)
        notes.push(
          `stale ${r.type} of ${stale.rollout_id}.a${stale.attempt_index} to ${r.to}: ${r.outcome}`,
        )
      if (records.some((r) => r.outcome !== 'stale_attempt'))
        scenarioProblems.push(
          `a delayed request of ${stale.rollout_id}.a${stale.attempt_index} was not refused with stale_attempt`,
        )
    } else scenarioProblems.push('no continued rollout to send delayed requests for')
  }
  if (restored !== null) {
    for (const rec of restored) {
      continued.add(rec.rollout_id)
      const plan = byId.get(rec.rollout_id)
      if (plan !== undefined) second.push(dispatch(plan, rec.attempt_index + 1))
    }
  }
  // Retired rollouts start over under their next attempt: on the replacements after a restore, on
  // the resumed originals after an abort.
  for (const id of retired) {
    const plan = byId.get(id.rollout_id)
    if (plan !== undefined) second.push(dispatch(plan, id.attempt_index + 1))
  }
  // The originals' /run requests end when their process does (or complete, on an abort); then
  // the rollouts refused while admission was closed start (on the replacements after a restore).
  await Promise.all(firstRuns)
  // Rollouts held back for a retaken checkpoint that was not needed (the first one completed) start
  // now.
  second.push(
    ...refused.splice(0).map((x) => dispatch(x.plan, x.attempt)),
    ...held.splice(0).map((p) => dispatch(p, 0)),
  )
  await Promise.all(second)
  if (
    options.scenario === 'corrupt-snapshot' &&
    !notes.some((n) => n.includes('restore abandoned'))
  )
    scenarioProblems.push('the corrupted snapshot was not refused at restore')
  for (const w of extraWorkers) w.stop()
  rmSync(socketDir, { recursive: true, force: true })
  const directory = join(options.dataDir, controller.checkpointId)
  const sources: TraceSource[] = [
    { rank: 0, records: controllerRecords(host.trace, calls, process.pid) },
    { rank: 1, records: dispatched },
    ...traceFiles.map((file, i) => ({
      rank: 2 + i,
      records: withoutDeliveredAnswers(readWireFile(file), delivered),
    })),
  ]
  const report =
    controller.stage === 'done'
      ? verifyCheckpoint(new NodeCheckpointDirectory(directory, { create: false }), nodeDigest)
      : null
  return {
    checkpoint_id: controller.checkpointId,
    directory,
    outcome: controller.stage === 'done' ? 'completed' : 'aborted',
    reason:
      controller.stage === 'done'
        ? null
        : ((
            host.trace.find((e) => e.type === 'controller.abort')?.payload as {
              reason?: string
            } | null
          )?.reason ?? 'aborted'),
    verified: report !== null && report.problems.length === 0,
    problems: report === null ? [] : report.problems.map((p) => `${p.path}: ${p.message}`),
    processes,
    originals_gone: originalsGone,
    rollouts: plans.map(
      (p) =>
        results.get(p.rollout_id) ?? {
          rollout_id: p.rollout_id,
          attempt_index: attempts.get(p.rollout_id) ?? 0,
          reward: 0,
          result_digest: '',
          continued: continued.has(p.rollout_id),
          retired: retiredSet.has(p.rollout_id),
        },
    ),
    retired: [...retiredSet].sort(),
    continued: [...continued].sort(),
    controller_trace: host.trace,
    control_calls: calls,
    trace: mergeFleetTrace(sources),
    notes,
    scenario_problems: scenarioProblems,
    wall_ms: Date.now() - t0,
  }
}

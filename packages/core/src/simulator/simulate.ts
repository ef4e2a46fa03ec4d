import type { RunConfig, RunConfigInput } from '../contracts/scenarios.ts'
import type { TraceEvent } from '../contracts/trace.ts'
import type { InvariantFailure, InvariantMap, SessionDetailView, SessionRow, TablesView } from '../contracts/views.ts'
import type { ControllerTestOptions } from '../controller/Controller.ts'
import type { EnvironmentServer } from '../environments/EnvironmentServer.ts'
import type { WorkplaceExample, WorkplaceSession } from '../environments/workplace/WorkplaceSession.ts'
import { sessionTables } from '../environments/workplace/WorkplaceSession.ts'
import type { WorkplaceData } from '../environments/workplace/WorkplaceData.ts'
import { parseWorkplaceBase } from '../environments/workplace/WorkplaceData.ts'
import { createWorkplaceServer } from '../environments/workplace/workplaceServer.ts'
import { diffSummary, diffTables } from '../environments/workplace/diffTables.ts'
import type { Table } from '../environments/workplace/Table.ts'
import type { Digest } from '../ports.ts'
import { InvariantChecker } from '../invariants/InvariantChecker.ts'
import type { JsonValue } from '../json.ts'
import { scenarioInfo } from '../scenarios/presets.ts'
import type { SimulatedCheckpoint, SimulationDeps, SimulationResult } from './Simulation.ts'
import { Simulator, outcomeKey } from './Simulator.ts'
import type { Recorder } from './Recorder.ts'
import { StepHistory } from './Recorder.ts'
import { defaultEnvFactory } from './World.ts'

/** Extra knobs for tests: deliberately broken participants and the Workplace environment. */
export interface SimulateOptions {
  readonly test?: ControllerTestOptions
}

/** Applies scenario defaults: seed "0", 9 rollouts, the preset's deadline and fault schedule. */
export function resolveRunConfig(input: RunConfigInput): RunConfig {
  const preset = scenarioInfo(input.scenario)
  return {
    scenario: input.scenario,
    seed: input.seed === undefined ? '0' : BigInt(input.seed).toString(),
    rollouts: input.rollouts ?? preset.config.rollouts,
    deadline_ms: input.deadline_ms ?? preset.config.deadline_ms,
    faults: input.faults ?? preset.faults,
  }
}

/** Workplace pieces a simulation runs with: the server, its example tasks, the tables view. */
interface WorkplaceDeps {
  readonly server: () => EnvironmentServer<unknown>
  readonly examples: readonly WorkplaceExample[]
  readonly tables: (session: unknown, baseline: JsonValue | null, step: number, key: string) => TablesView | undefined
}

// Parsing the base tables is the expensive part; one parse per data object serves every run.
const workplaceCache = new WeakMap<WorkplaceData, WorkplaceDeps>()

function workplaceDeps(data: WorkplaceData | undefined, digest: Digest, rollouts: number): WorkplaceDeps | undefined {
  if (data === undefined) {
    if (rollouts >= 3) throw new Error('SimulationDeps.workplace is required: this run has workplace rollouts (pass loadNodeWorkplaceData())')
    return undefined
  }
  const cached = workplaceCache.get(data)
  if (cached !== undefined) return cached
  const base = parseWorkplaceBase(data, digest)
  const server = createWorkplaceServer(base)
  const codec = server.codec
  const deps: WorkplaceDeps = {
    server: () => createWorkplaceServer(base) as unknown as EnvironmentServer<unknown>,
    examples: base.examples,
    tables: (session, baseline, step, key) => {
      const current = sessionTables(base, session as WorkplaceSession)
      let before: { readonly [name: string]: Table } = base.tables
      if (baseline !== null) {
        const restored = codec.restoreState(baseline)
        if (restored.ok) before = sessionTables(base, restored.value)
      }
      const tables = diffTables(before, current)
      return { step, session: key, baseline: baseline === null ? 'base' : 'prepare', tables, summary: diffSummary(tables) }
    },
  }
  workplaceCache.set(data, deps)
  return deps
}

/**
 * Runs one simulation as a generator so the API can stream events live; the return value answers
 * every view at any step. Same seed + config ⇒ the same trace and directory bytes.
 */
export function* simulate(config: RunConfig, deps: SimulationDeps, options: SimulateOptions = {}): Generator<TraceEvent, SimulationResult> {
  const workplace = workplaceDeps(deps.workplace, deps.digest, config.rollouts)
  const envs = defaultEnvFactory(workplace?.server)
  const examples = workplace?.examples ?? []
  const sim = new Simulator(config, { digest: deps.digest, openDirectory: (id) => deps.openDirectory(id), envs, workplaceExamples: examples, checkpoint: true, record: true, ...(options.test === undefined ? {} : { test: options.test }) })
  const checker = new InvariantChecker()
  const invariantSteps = new StepHistory<readonly InvariantFailure[]>()
  let seen = 0
  for (const event of sim.run()) {
    checker.observe(event)
    if (checker.failures.length !== seen) {
      seen = checker.failures.length
      invariantSteps.set(event.step, [...checker.failures])
    }
    yield event
  }
  // Equivalence: each continued rollout ends as the same rollout run without a checkpoint.
  const baseline = new Simulator(config, { digest: deps.digest, openDirectory: (id) => deps.openDirectory(`baseline-${id}`), envs, workplaceExamples: examples, checkpoint: false, record: false, only: sim.continued })
  for (const _ of baseline.run()) void _
  const total = sim.recorder.events.length
  for (const rolloutId of [...sim.continued].sort()) {
    const a = sim.outcomes.get(rolloutId)
    const b = baseline.outcomes.get(rolloutId)
    if (a === undefined || b === undefined || outcomeKey(a) !== outcomeKey(b)) {
      checker.fail('equivalence', total, `continued rollout ${rolloutId} ${a === undefined ? 'did not finish' : 'ended differently than without the checkpoint'}`)
      break
    }
  }
  if (checker.failures.length !== seen) invariantSteps.set(total, [...checker.failures])
  return makeResult(config, sim, checker, invariantSteps, workplace)
}

/** `simulate` run to the end. */
export function runSimulation(config: RunConfig, deps: SimulationDeps, options: SimulateOptions = {}): SimulationResult {
  const gen = simulate(config, deps, options)
  for (;;) {
    const next = gen.next()
    if (next.done === true) return next.value
  }
}

function makeResult(config: RunConfig, sim: Simulator, checker: InvariantChecker, invariantSteps: StepHistory<readonly InvariantFailure[]>, workplace: WorkplaceDeps | undefined): SimulationResult {
  const rec: Recorder = sim.recorder
  const events = rec.events
  const clamp = (step: number) => Math.max(0, Math.min(events.length, Math.floor(step)))
  const invariantsAt = (step: number): { invariants: InvariantMap; failures: readonly InvariantFailure[] } => {
    const failures = invariantSteps.at(clamp(step)) ?? []
    const failed = new Set(failures.map((f) => f.id))
    const map = Object.fromEntries(Object.keys(checker.map()).map((id) => [id, failed.has(id as InvariantFailure['id']) ? 'fail' : 'pass'])) as unknown as InvariantMap
    return { invariants: map, failures }
  }
  // Summaries are derived on demand and cached per (immutable) session object.
  const summaries = new WeakMap<object, string>()
  const rowOf = (rec2: { row: SessionRow; session: unknown }): SessionRow => {
    if (rec2.row.summary !== '' || rec2.session === undefined || rec2.session === null || typeof rec2.session !== 'object') return rec2.row
    let text = summaries.get(rec2.session)
    if (text === undefined) {
      text = sim.world.resources[rec2.row.environment].env.codec.describe(rec2.session)
      summaries.set(rec2.session, text)
    }
    return { ...rec2.row, summary: text }
  }
  const checkpoints: SimulatedCheckpoint[] = sim.checkpoints.map((c) => ({ checkpoint_id: c.checkpoint_id, location: c.location, damaged: c.damaged }))
  const finalFailures = checker.failures
  return {
    config,
    events,
    outcome: sim.controller.stage === 'done' ? 'completed' : 'aborted',
    invariants: checker.map(),
    failures: finalFailures,
    checkpoints,
    participantsAt: (step) => {
      const s = clamp(step)
      const out = []
      for (const id of rec.participantOrder) {
        const v = rec.participants.get(id)?.at(s)
        if (v !== undefined) out.push(v)
      }
      return out
    },
    sessionsAt: (step) => {
      const s = clamp(step)
      const out: SessionRow[] = []
      for (const [, h] of rec.sessions) {
        const v = h.at(s)
        if (v !== undefined) out.push(rowOf(v))
      }
      return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    },
    invariantsAt,
    sessionDetail: (key, step): SessionDetailView | undefined => {
      const s = clamp(step)
      const h = rec.sessions.get(key)?.at(s)
      if (h === undefined) return undefined
      const env = rec.sessionEnv.get(key)
      const codec = env === undefined ? undefined : sim.world.resources[env].env.codec
      const state = h.session === undefined || codec === undefined ? null : codec.exportState(h.session)
      const prep = preparedFor(rec, key, s)
      return { step: s, session: rowOf(h), state: state === null ? null : state.ok ? state.value : null, prepare: prep }
    },
    tables: (key, step): TablesView | undefined => {
      const s = clamp(step)
      if (rec.sessionEnv.get(key) !== 'workplace' || workplace === undefined) return undefined
      const h = rec.sessions.get(key)?.at(s)
      if (h === undefined || h.session === undefined) return undefined
      return workplace.tables(h.session, preparedFor(rec, key, s), s, key)
    },
    lineage: (step) => rec.lineage(clamp(step)),
  }
}

/** The prepare snapshot of `key` (or of the attempt it continues) once the step has passed it. */
function preparedFor(rec: Recorder, key: string, step: number): JsonValue {
  const direct = rec.prepared.get(key)
  if (direct !== undefined) return direct.step <= step ? direct.state : null
  const at = key.lastIndexOf('.a')
  const attempt = Number(key.slice(at + 2))
  if (attempt > 0) {
    const source = rec.prepared.get(`${key.slice(0, at)}.a${attempt - 1}`)
    if (source !== undefined && source.step <= step) return source.state
  }
  return null
}

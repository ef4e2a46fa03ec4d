import type { RunConfig } from '../contracts/scenarios.ts'
import { generationCutViews } from './generationCutViews.ts'
import type { TraceEvent } from '../contracts/trace.ts'
import type {
  InvariantFailure,
  InvariantMap,
  LineageView,
  SessionDetailView,
  SessionRow,
  TablesView,
} from '../contracts/views.ts'
import type { ControllerTestOptions } from '../controller/Controller.ts'
import type { EnvironmentServer } from '../environments/EnvironmentServer.ts'
import type {
  WorkplaceExample,
  WorkplaceSession,
} from '../environments/workplace/WorkplaceSession.ts'
import { sessionTables } from '../environments/workplace/WorkplaceSession.ts'
import type { WorkplaceData } from '../environments/workplace/WorkplaceData.ts'
import { parseWorkplaceBase } from '../environments/workplace/WorkplaceData.ts'
import { createWorkplaceServer } from '../environments/workplace/workplaceServer.ts'
import { diffSummary, diffTables } from '../environments/workplace/diffTables.ts'
import type { Table } from '../environments/workplace/Table.ts'
import type { Digest } from '../ports.ts'
import { InvariantChecker } from '../invariants/InvariantChecker.ts'
import type { JsonValue } from '../json.ts'
import type { SimulatedCheckpoint, SimulationDeps, SimulationResult } from './Simulation.ts'
import type { RolloutOutcome } from './RolloutOutcome.ts'
import { sameOutcome } from './RolloutOutcome.ts'
import { Simulator } from './Simulator.ts'
import type { Recorder, SessionRecord } from './Recorder.ts'
import { StepHistory } from './Recorder.ts'
import { ChangedRowCounter } from './changedRows.ts'
import { cardView } from './participantView.ts'
import { LineageIndex } from './LineageIndex.ts'
import { defaultEnvFactory } from './World.ts'
import { inertFaults } from './inertFaults.ts'

/** Extra knobs for tests: deliberately broken participants and the Workplace environment. */
export interface SimulateOptions {
  readonly test?: ControllerTestOptions
  /**
   * Called once, before the first event, with a result that answers the views of the run so far
   * (through the step before the last one yielded: that step's records are final) while the
   * generator is still running, so a server can show a streaming run at its current edge.
   */
  readonly live?: (result: SimulationResult) => void
}

export { resolveRunConfig } from './resolveRunConfig.ts'

/** Workplace pieces a simulation runs with: the server, its example tasks, the tables view. */
interface WorkplaceDeps {
  readonly server: () => EnvironmentServer<unknown>
  readonly examples: readonly WorkplaceExample[]
  readonly tables: (
    session: unknown,
    baseline: JsonValue | null,
    step: number,
    key: string,
  ) => TablesView | undefined
  /**
   * The codec's one-line summary (`N rows changed` against the base), counted without building the
   * diff.
   */
  readonly summary: (session: unknown) => string
}

// Parsing the base tables is the expensive part; one parse per data object serves every run.
const workplaceCache = new WeakMap<WorkplaceData, WorkplaceDeps>()

function workplaceDeps(
  data: WorkplaceData | undefined,
  digest: Digest,
  rollouts: number,
): WorkplaceDeps | undefined {
  if (data === undefined) {
    if (rollouts >= 3)
      throw new Error(
        'SimulationDeps.workplace is required: this run has workplace rollouts (pass loadNodeWorkplaceData())',
      )
    return undefined
  }
  const cached = workplaceCache.get(data)
  if (cached !== undefined) return cached
  const base = parseWorkplaceBase(data, digest)
  const server = createWorkplaceServer(base)
  const codec = server.codec
  const counter = new ChangedRowCounter(base.tables)
  const diffs = new WeakMap<object, WeakMap<object, Pick<TablesView, 'tables' | 'summary'>>>()
  const deps: WorkplaceDeps = {
    server: () => createWorkplaceServer(base) as unknown as EnvironmentServer<unknown>,
    examples: base.examples,
    tables: (session, baseline, step, key) => {
      // Sessions and prepare snapshots are immutable: one diff per (session, snapshot) pair.
      // (A primitive snapshot cannot restore, so it diffs against the base like no snapshot.)
      const against: object = baseline !== null && typeof baseline === 'object' ? baseline : base
      let perSession = diffs.get(session as object)
      if (perSession === undefined) {
        perSession = new WeakMap()
        diffs.set(session as object, perSession)
      }
      let diff = perSession.get(against)
      if (diff === undefined) {
        const current = sessionTables(base, session as WorkplaceSession)
        let before: { readonly [name: string]: Table } = base.tables
        if (baseline !== null) {
          const restored = codec.restoreState(baseline)
          if (restored.ok) before = sessionTables(base, restored.value)
        }
        const tables = diffTables(before, current)
        diff = { tables, summary: diffSummary(tables) }
        perSession.set(against, diff)
      }
      return {
        step,
        session: key,
        baseline: baseline === null ? 'base' : 'prepare',
        tables: diff.tables,
        summary: diff.summary,
      }
    },
    summary: (session) => {
      const n = counter.count((session as WorkplaceSession).tables)
      return `${n} row${n === 1 ? '' : 's'} changed`
    },
  }
  workplaceCache.set(data, deps)
  return deps
}

/**
 * Runs one simulation as a generator so the API can stream events live; the return value answers
 * every view at any step. Same seed + config ⇒ the same trace and directory bytes.
 */
export function* simulate(
  config: RunConfig,
  deps: SimulationDeps,
  options: SimulateOptions = {},
): Generator<TraceEvent, SimulationResult> {
  const workplace = workplaceDeps(deps.workplace, deps.digest, config.rollouts)
  const envs = defaultEnvFactory(workplace?.server)
  const examples = workplace?.examples ?? []
  const sim = new Simulator(config, {
    digest: deps.digest,
    openDirectory: (id) => deps.openDirectory(id),
    envs,
    workplaceExamples: examples,
    checkpoint: true,
    record: true,
    ...(options.test === undefined ? {} : { test: options.test }),
  })
  // Equivalence: each continued rollout ends as the same rollout run without a checkpoint. The
  // baseline runs only the continued rollouts (rollouts are independent), started once a restore
  // has dispatched them and worked a few agenda items per event while the run continues: no single
  // `next()` carries it (the API runs this generator in short slices on its event loop). A later
  // restore that continues more rollouts starts another baseline for just those.
  const baselines: {
    readonly sim: Simulator
    readonly outcomes: Iterator<RolloutOutcome>
    taken: number
  }[] = []
  /** Continued rollouts a baseline was started for. */
  const baselineStarted = new Set<string>()
  /**
   * Each baseline outcome by rollout id: a finished baseline simulator (its whole world: receipts,
   * model outputs, every session) is dropped once its outcomes are taken (≈ 19 % of the live heap
   * at 3,000 rollouts while it was held to the end); an outcome keeps only its final session.
   */
  const baselineOutcomes = new Map<string, RolloutOutcome>()
  // Each continued rollout is judged as soon as both outcomes exist (no work piles up at the end),
  // once per main-run outcome object: equal when `sameOutcome` says so.
  const verdicts = new WeakMap<RolloutOutcome, boolean>()
  const judge = (a: RolloutOutcome, b: RolloutOutcome): boolean => {
    let same = verdicts.get(a)
    if (same === undefined) {
      same = sameOutcome(a, b)
      verdicts.set(a, same)
    }
    return same
  }
  let continuedSeen = 0
  const startBaseline = () => {
    const ids = [...sim.continued].filter((id) => !baselineStarted.has(id))
    if (ids.length === 0) return
    const b = new Simulator(config, {
      digest: deps.digest,
      openDirectory: (id) => deps.openDirectory(`baseline-${id}`),
      envs,
      workplaceExamples: examples,
      checkpoint: false,
      record: false,
      only: new Set(ids),
    })
    b.start()
    for (const id of ids) baselineStarted.add(id)
    // A Map iterator sees entries added later, as long as it is never read past the end.
    baselines.push({ sim: b, outcomes: b.outcomes.values(), taken: 0 })
  }
  /**
   * Runs up to `budget` baseline agenda items, taking (and judging, when it can) each outcome as it
   * appears.
   */
  const advanceBaselines = (budget: number) => {
    while (budget > 0 && baselines.length > 0) {
      const b = baselines[0] as (typeof baselines)[number]
      const more = b.sim.advance()
      for (; b.taken < b.sim.outcomes.size; b.taken++) {
        const next = b.outcomes.next()
        if (next.done === true) continue
        const id = next.value.rollout_id
        baselineOutcomes.set(id, next.value)
        const a = sim.continued.has(id) ? sim.outcomes.get(id) : undefined
        if (a !== undefined) judge(a, next.value)
      }
      if (more) budget--
      else baselines.shift()
    }
  }
  const rowOf = sessionRows(sim, workplace)
  const checker = new InvariantChecker()
  const invariantSteps = new StepHistory<readonly InvariantFailure[]>()
  let seen = 0
  let edge = 0
  if (options.live !== undefined)
    options.live(
      makeResult(config, sim, checker, invariantSteps, workplace, rowOf, () =>
        Math.max(0, edge - 1),
      ),
    )
  for (const event of sim.run()) {
    checker.observe(event)
    if (checker.failures.length !== seen) {
      seen = checker.failures.length
      invariantSteps.set(event.step, [...checker.failures])
    }
    if (event.type === 'run.complete') {
      const rolloutId = String(event.payload['rollout_id'])
      const outcome = sim.continued.has(rolloutId) ? sim.outcomes.get(rolloutId) : undefined
      const baseline = baselineOutcomes.get(rolloutId)
      if (outcome !== undefined && baseline !== undefined) judge(outcome, baseline)
    }
    // A restore dispatches its continued rollouts over several events: start once the set holds
    // still.
    if (sim.continued.size !== continuedSeen) continuedSeen = sim.continued.size
    else if (baselineStarted.size < continuedSeen) startBaseline()
    advanceBaselines(BASELINE_ITEMS_PER_EVENT)
    // Summaries as sessions change (cheap: Workplace tables are counted once each), so no view
    // ever pays for all of them at once.
    for (const record of sim.recorder.unsummarised) rowOf(record)
    sim.recorder.unsummarised.length = 0
    edge = event.step
    yield event
  }
  // Normally the baselines have finished by now (the run goes on long after its restore).
  startBaseline()
  advanceBaselines(Infinity)
  const total = sim.recorder.events.length
  for (const rolloutId of [...sim.continued].sort()) {
    const a = sim.outcomes.get(rolloutId)
    const b = baselineOutcomes.get(rolloutId)
    if (a === undefined || b === undefined || !judge(a, b)) {
      checker.fail(
        'equivalence',
        total,
        `continued rollout ${rolloutId} ${a === undefined ? 'did not finish' : 'ended differently than without the checkpoint'}`,
      )
      break
    }
  }
  // Cut calls too: a continued call's tokens are exactly those of the same call never interrupted.
  const differing = sim.cutContinuations.find((c) => !c.equal)
  if (differing !== undefined)
    checker.fail(
      'equivalence',
      total,
      `continued call ${differing.model_call_id} of ${differing.rollout_id} produced other tokens than ${differing.cut_model_call_id} would have uninterrupted`,
    )
  if (checker.failures.length !== seen) invariantSteps.set(total, [...checker.failures])
  return makeResult(config, sim, checker, invariantSteps, workplace, rowOf)
}

/** Baseline agenda items run at most per yielded event (each is one model or env step). */
const BASELINE_ITEMS_PER_EVENT = 4

/** `simulate` run to the end. */
export function runSimulation(
  config: RunConfig,
  deps: SimulationDeps,
  options: SimulateOptions = {},
): SimulationResult {
  const gen = simulate(config, deps, options)
  for (;;) {
    const next = gen.next()
    if (next.done === true) return next.value
  }
}

/**
 * The views of a run. Finished (`liveEdge` undefined): every step of the whole trace, cached.
 * Live: the steps up to `liveEdge()`, which grows as the generator runs; nothing is cached by step
 * (a step's records are final, but the key lists and the lineage index grow).
 */
function makeResult(
  config: RunConfig,
  sim: Simulator,
  checker: InvariantChecker,
  invariantSteps: StepHistory<readonly InvariantFailure[]>,
  workplace: WorkplaceDeps | undefined,
  rowOf: (record: SessionRecord) => SessionRow,
  liveEdge?: () => number,
): SimulationResult {
  const rec: Recorder = sim.recorder
  const all = rec.events
  const limit = liveEdge ?? (() => all.length)
  const clamp = (step: number) => Math.max(0, Math.min(limit(), Math.floor(step)))
  const invariantsAt = (
    step: number,
  ): { invariants: InvariantMap; failures: readonly InvariantFailure[] } => {
    const failures = invariantSteps.at(clamp(step)) ?? []
    const failed = new Set(failures.map((f) => f.id))
    const map = Object.fromEntries(
      Object.keys(checker.map()).map((id) => [
        id,
        failed.has(id as InvariantFailure['id']) ? 'fail' : 'pass',
      ]),
    ) as unknown as InvariantMap
    return { invariants: map, failures }
  }
  // Sessions in key order, sorted once (again when a live run has new ones): a view is then one
  // binary search per session, no sort.
  let sessionHistories: StepHistory<SessionRecord>[] = []
  let sessionCount = -1
  const histories = (): readonly StepHistory<SessionRecord>[] => {
    if (sessionCount !== rec.sessions.size) {
      sessionCount = rec.sessions.size
      sessionHistories = [...rec.sessions.keys()]
        .sort()
        .map((key) => rec.sessions.get(key) as StepHistory<SessionRecord>)
    }
    return sessionHistories
  }
  const live = liveEdge !== undefined
  const sessionsCache = new StepCache<readonly SessionRow[]>()
  const lineageCache = new StepCache<LineageView>()
  // Built on the first lineage view (not in the generator's last slice); a live run rebuilds it as
  // it grows.
  let lineage: LineageIndex | undefined
  let lineageEdge = -1
  const checkpointsNow = (): SimulatedCheckpoint[] =>
    sim.checkpoints.map((c) => ({
      checkpoint_id: c.checkpoint_id,
      location: c.location,
      damaged: c.damaged,
    }))
  const sessionsAt = (s: number): readonly SessionRow[] => {
    const out: SessionRow[] = []
    for (const h of histories()) {
      const v = h.at(s)
      if (v !== undefined) out.push(rowOf(v))
    }
    return out
  }
  const lineageAt = (s: number): LineageView => {
    if (live && lineageEdge !== limit()) {
      lineage = undefined
      lineageEdge = limit()
    }
    return (lineage ??= new LineageIndex(rec)).at(s)
  }
  let liveEvents: readonly TraceEvent[] = []
  let inert: SimulationResult['inert_faults'] = []
  let inertEdge = -1
  // A live result reads its fields at each request; a finished one is plain data.
  const liveFields: Pick<
    SimulationResult,
    'config' | 'events' | 'outcome' | 'invariants' | 'failures' | 'checkpoints' | 'inert_faults'
  > = {
    config,
    get events() {
      if (liveEvents.length !== limit()) liveEvents = all.slice(0, limit())
      return liveEvents
    },
    get outcome() {
      return sim.controller.stage === 'done' ? 'completed' : 'aborted'
    },
    get invariants() {
      return invariantsAt(limit()).invariants
    },
    get failures() {
      return invariantsAt(limit()).failures
    },
    get checkpoints() {
      return checkpointsNow()
    },
    get inert_faults() {
      if (inertEdge !== limit()) {
        inertEdge = limit()
        inert = inertFaults(config, this.events)
      }
      return inert
    },
  }
  const views: Omit<SimulationResult, keyof typeof liveFields> = {
    participantsAt: (step) => {
      const s = clamp(step)
      const out = []
      for (const id of rec.participantOrder) {
        const v = rec.participants.get(id)?.at(s)
        if (v !== undefined) out.push(cardView(v))
      }
      return out
    },
    sessionsAt: (step) => {
      const s = clamp(step)
      return live ? sessionsAt(s) : sessionsCache.get(s, () => sessionsAt(s))
    },
    invariantsAt,
    sessionDetail: (key, step): SessionDetailView | undefined => {
      const s = clamp(step)
      const h = rec.sessions.get(key)?.at(s)
      if (h === undefined) return undefined
      const env = rec.sessionEnv.get(key)
      const codec = env === undefined ? undefined : sim.world.resources[env].env.codec
      const state =
        h.session === undefined || codec === undefined ? null : codec.exportState(h.session)
      const prep = preparedFor(rec, key, s)
      const rollout = h.row.rollout_id
      const cuts = rec.cutSteps.has(rollout)
        ? generationCutViews(rec.cutEvents, rollout, s, sim.tokenStore, sim.options.digest)
        : []
      return {
        step: s,
        session: rowOf(h),
        state: state === null ? null : state.ok ? state.value : null,
        prepare: prep,
        ...(cuts.length === 0 ? {} : { generation_cuts: cuts }),
      }
    },
    tables: (key, step): TablesView | undefined => {
      const s = clamp(step)
      if (rec.sessionEnv.get(key) !== 'workplace' || workplace === undefined) return undefined
      const h = rec.sessions.get(key)?.at(s)
      if (h === undefined || h.session === undefined) return undefined
      return workplace.tables(h.session, preparedFor(rec, key, s), s, key)
    },
    lineage: (step) => {
      const s = clamp(step)
      return live ? lineageAt(s) : lineageCache.get(s, () => lineageAt(s))
    },
  }
  if (live)
    return Object.defineProperties(
      views,
      Object.getOwnPropertyDescriptors(liveFields),
    ) as SimulationResult
  return {
    config,
    events: all,
    outcome: sim.controller.stage === 'done' ? 'completed' : 'aborted',
    invariants: checker.map(),
    failures: checker.failures,
    checkpoints: checkpointsNow(),
    inert_faults: inertFaults(config, all),
    ...views,
  }
}

/**
 * A session record's row with its one-line summary filled in: the summarised row replaces the bare
 * one in the record (one row per record, no cache entry per record), and summaries are cached per
 * (immutable) session object.
 */
function sessionRows(
  sim: Simulator,
  workplace: WorkplaceDeps | undefined,
): (record: SessionRecord) => SessionRow {
  const summaries = new WeakMap<object, string>()
  const summaryOf = (row: SessionRow, session: object): string => {
    let text = summaries.get(session)
    if (text === undefined) {
      text =
        row.environment === 'workplace' && workplace !== undefined
          ? workplace.summary(session)
          : sim.world.resources[row.environment].env.codec.describe(session)
      summaries.set(session, text)
    }
    return text
  }
  return (record) => {
    if (
      record.row.summary !== '' ||
      record.session === undefined ||
      record.session === null ||
      typeof record.session !== 'object'
    )
      return record.row
    // Spelled out (a spread plus a property is slow on this V8); the key order is the one
    // RolloutDriver builds rows in.
    const r = record.row
    const row = {
      key: r.key,
      rollout_id: r.rollout_id,
      attempt: r.attempt,
      environment: r.environment,
      state: r.state,
      revision: r.revision,
      session_id: r.session_id,
      summary: summaryOf(r, record.session),
    }
    record.row = row
    return row
  }
}

/** The last few views by step: a UI re-asking for the step it shows gets the same object back. */
class StepCache<T> {
  readonly #entries = new Map<number, T>()

  get(step: number, make: () => T): T {
    const hit = this.#entries.get(step)
    if (hit !== undefined) return hit
    const value = make()
    if (this.#entries.size >= 16) this.#entries.delete(this.#entries.keys().next().value as number)
    this.#entries.set(step, value)
    return value
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

import type { SimulationResult } from '@cutover/core'
import { ENV_NAMES, InvariantChecker } from '@cutover/core'
import { RECORDED_SCENARIO } from '@cutover/core/contracts'
import type {
  EnvName,
  InvariantFailure,
  InvariantMap,
  JsonValue,
  LineageView,
  ParticipantView,
  RunView,
  SessionRow,
  TraceEvent,
} from '@cutover/core/contracts'

/**
 * The invariants over the first `step` events of a recorded trace, the same checker the simulator
 * runs; `equivalence` (decided at the end, against the simulator's uninterrupted run) comes in
 * `endFailures` and counts once the last step is reached.
 */
export function traceInvariants(
  events: readonly TraceEvent[],
  step: number,
  endFailures: readonly InvariantFailure[] = [],
): { invariants: InvariantMap; failures: InvariantFailure[] } {
  const checker = new InvariantChecker()
  for (const e of events.slice(0, step)) checker.observe(e)
  if (step >= events.length) for (const f of endFailures) checker.fail(f.id, f.step, f.message)
  return { invariants: checker.map(), failures: [...checker.failures] }
}

const PARTICIPANTS = [
  'controller',
  'policy_model',
  'agent',
  ...ENV_NAMES.map((e) => `resources_${e}`),
] as const

type Card = { -readonly [K in keyof ParticipantView]: ParticipantView[K] }

const record = (v: JsonValue | undefined): { readonly [key: string]: JsonValue } =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {}
const keyOf = (p: { readonly [key: string]: JsonValue }): string | null =>
  typeof p['rollout_id'] === 'string' && typeof p['attempt_index'] === 'number'
    ? `${p['rollout_id']}.a${p['attempt_index']}`
    : null

/** The phase a control call left its participant in, by the call's type (when it succeeded). */
const PHASE_AFTER: {
  readonly [type: string]: { readonly phase: string; readonly admission?: string }
} = {
  'agent.prepare': { phase: 'preparing', admission: 'paused' },
  'model.pause': { phase: 'preparing' },
  'resources.prepare': { phase: 'preparing', admission: 'paused' },
  'agent.commit': { phase: 'committed_paused' },
  'model.commit': { phase: 'committed_paused' },
  'resources.commit': { phase: 'committed_paused' },
  'model.restore': { phase: 'restored_paused', admission: 'paused' },
  'agent.restore': { phase: 'restored_paused', admission: 'paused' },
  'resources.restore': { phase: 'restored_paused', admission: 'paused' },
  'model.resume': { phase: 'idle', admission: 'accepting' },
  'agent.resume': { phase: 'idle', admission: 'accepting' },
  'resources.resume': { phase: 'idle', admission: 'accepting' },
}

/**
 * A recorded fleet run's views, computed from its trace alone (a fleet run cannot be re-simulated):
 * participant cards follow the control calls each participant answered (with the PID of the process
 * that held the role at that step), sessions and lineage follow the data-plane messages, invariants
 * are re-checked over the trace. Workplace tables and environment states are not recorded.
 */
export function fleetTraceResult(view: RunView, events: readonly TraceEvent[]): SimulationResult {
  const total = events.length
  const clamp = (step: number): number => Math.max(0, Math.min(total, Math.floor(step)))
  const pidOf = (participant: string, role: 'original' | 'replacement'): number | undefined =>
    view.processes?.find((p) => p.participant === participant && p.role === role)?.pid
  const firstRestore = events.findIndex((e) => e.phase === 'restore')

  // Cards and session rows after each step, built once (shared objects where nothing changed).
  const cardsAt: (readonly ParticipantView[])[] = []
  const rowsAt: (readonly SessionRow[])[] = []
  const cards = new Map<string, Card>(
    PARTICIPANTS.map((id) => [
      id,
      {
        id,
        kind:
          id === 'controller'
            ? 'controller'
            : id === 'policy_model'
              ? 'policy_model'
              : id === 'agent'
                ? 'agent'
                : 'resources',
        phase: id === 'controller' ? 'idle' : 'idle',
        admission: id === 'controller' ? 'open' : 'accepting',
        inflight: 0,
        tombstones: [],
        manifest_digest: null,
        checkpoint_id: null,
      },
    ]),
  )
  const rows = new Map<string, SessionRow>()
  let rowsChanged = false
  let running = 0
  const live = (row: SessionRow | undefined): number =>
    row !== undefined && (row.state === 'bound' || row.state === 'restored') ? 1 : 0
  const setRow = (key: string, row: SessionRow): void => {
    running += live(row) - live(rows.get(key))
    rows.set(key, row)
    rowsChanged = true
  }
  const snapshot = (step: number): void => {
    const role = firstRestore >= 0 && step > firstRestore ? 'replacement' : 'original'
    cardsAt.push(
      PARTICIPANTS.map((id) => {
        const c = cards.get(id) as Card
        const pid = id === 'controller' ? undefined : (pidOf(id, role) ?? pidOf(id, 'original'))
        return pid === undefined ? { ...c } : { ...c, pid }
      }),
    )
    // Rows change at a few steps only: the others share the previous array.
    const previous = rowsAt[rowsAt.length - 1]
    rowsAt.push(
      previous !== undefined && !rowsChanged
        ? previous
        : [...rows.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
    )
    rowsChanged = false
  }
  snapshot(0)
  for (const e of events) {
    const p = e.payload as { readonly [key: string]: JsonValue }
    const key = keyOf(p)
    const to = cards.get(e.to)
    const cid = typeof p['checkpoint_id'] === 'string' ? p['checkpoint_id'] : null
    if (e.from === 'controller' && cid !== null) {
      const controller = cards.get('controller') as Card
      controller.checkpoint_id = cid
      controller.phase = e.type === 'controller.abort' ? 'aborted' : e.phase
      controller.admission =
        e.phase === 'prepare' ||
        e.phase === 'retire' ||
        e.phase === 'commit' ||
        e.phase === 'restore'
          ? 'frozen'
          : 'open'
    }
    if (to !== undefined && e.outcome === 'ok') {
      const after = PHASE_AFTER[e.type]
      if (after !== undefined) {
        to.phase = after.phase
        if (after.admission !== undefined) to.admission = after.admission
        to.checkpoint_id = after.phase === 'idle' ? null : cid
        const result = record(p['result'])
        if (typeof result['state'] === 'string') to.admission = result['state']
        const digest = result['manifest_digest'] ?? result['manifest_sha256']
        if (typeof digest === 'string') to.manifest_digest = digest
      }
      if (
        (e.type === 'model.abort_inflight' ||
          e.type === 'agent.retire' ||
          e.type === 'resources.retire') &&
        key !== null &&
        !to.tombstones.includes(key)
      )
        to.tombstones = [...to.tombstones, key].sort()
      if (e.type === 'model.status') {
        const result = record(p['result'])
        if (typeof result['state'] === 'string') to.admission = result['state']
        if (typeof result['inflight_total'] === 'number') to.inflight = result['inflight_total']
      }
    }
    if (
      key !== null &&
      typeof p['rollout_id'] === 'string' &&
      typeof p['attempt_index'] === 'number'
    ) {
      const existing = rows.get(key)
      if (e.type === 'run.dispatch' && e.outcome === 'ok') {
        const env = (typeof p['environment'] === 'string' ? p['environment'] : 'counter') as EnvName
        setRow(key, {
          key,
          rollout_id: p['rollout_id'],
          attempt: p['attempt_index'],
          environment: env,
          state: p['continued'] === true ? 'restored' : 'bound',
          revision: null,
          session_id: null,
          summary: '',
        })
      } else if (existing !== undefined) {
        if (e.type === 'run.complete') {
          setRow(key, {
            ...existing,
            state:
              e.outcome === 'ok'
                ? 'terminal'
                : existing.state === 'retired'
                  ? 'retired'
                  : 'uncertain',
          })
        } else if (
          (e.type === 'agent.retire' || e.type === 'rollout.retired') &&
          e.outcome === 'ok'
        )
          setRow(key, { ...existing, state: 'retired' })
        else if (
          (e.type === 'env.start' || e.type === 'env.request' || e.type === 'env.verify') &&
          typeof p['revision'] === 'number'
        )
          setRow(key, { ...existing, revision: p['revision'] })
      }
    }
    // The agent's commit exported every execution still running (their processes end after it).
    if (e.type === 'agent.commit' && e.outcome === 'ok')
      for (const [k, row] of rows)
        if (row.state === 'bound' || row.state === 'restored')
          setRow(k, { ...row, state: 'exported' })
    if (e.type === 'agent.resume' && e.outcome === 'ok')
      (cards.get('controller') as Card).phase = 'done'
    ;(cards.get('agent') as Card).inflight = running
    snapshot(e.step)
  }

  const invariantCache = new Map<
    number,
    { invariants: InvariantMap; failures: InvariantFailure[] }
  >()
  const invariantsAt = (
    step: number,
  ): { invariants: InvariantMap; failures: InvariantFailure[] } => {
    const s = clamp(step)
    let hit = invariantCache.get(s)
    if (hit === undefined) {
      hit = traceInvariants(
        events,
        s,
        view.failures.filter((f) => f.id === 'equivalence'),
      )
      if (invariantCache.size >= 16)
        invariantCache.delete(invariantCache.keys().next().value as number)
      invariantCache.set(s, hit)
    }
    return hit
  }

  const lineage = (step: number): LineageView => {
    const s = clamp(step)
    const rollouts = new Map<
      string,
      {
        environment: EnvName
        attempts: Map<
          number,
          {
            status: LineageView['rollouts'][number]['attempts'][number]['status']
            calls: LineageView['rollouts'][number]['attempts'][number]['calls'][number][]
          }
        >
      }
    >()
    for (const e of events.slice(0, s)) {
      const p = e.payload as { readonly [key: string]: JsonValue }
      const rid = p['rollout_id']
      const attempt = p['attempt_index']
      if (typeof rid !== 'string' || typeof attempt !== 'number') continue
      if (e.type === 'run.dispatch' && e.outcome === 'ok') {
        const r = rollouts.get(rid) ?? {
          environment: (p['environment'] ?? 'counter') as EnvName,
          attempts: new Map(),
        }
        rollouts.set(rid, r)
        for (const [n, a] of r.attempts)
          if (n < attempt && a.status !== 'retired') a.status = 'continued'
        if (!r.attempts.has(attempt)) r.attempts.set(attempt, { status: 'running', calls: [] })
        continue
      }
      const a = rollouts.get(rid)?.attempts.get(attempt)
      if (a === undefined) continue
      if (
        e.type === 'model.request' &&
        e.outcome === 'ok' &&
        typeof p['model_call_id'] === 'string'
      ) {
        a.calls.push({
          model_call_id: p['model_call_id'],
          parent_call_id: typeof p['parent_call_id'] === 'string' ? p['parent_call_id'] : null,
          relay: p['relay'] === true,
          step: e.step,
        })
      } else if (e.type === 'run.complete' && e.outcome === 'ok') a.status = 'completed'
      else if ((e.type === 'agent.retire' || e.type === 'rollout.retired') && e.outcome === 'ok')
        a.status = 'retired'
      else if (e.type === 'model.abort_inflight' && e.outcome === 'ok' && a.status === 'running')
        a.status = 'fenced'
    }
    return {
      rollouts: [...rollouts.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([rollout_id, r]) => ({
          rollout_id,
          environment: r.environment,
          attempts: [...r.attempts.entries()]
            .sort(([a], [b]) => a - b)
            .map(([attempt, x]) => ({ attempt, status: x.status, calls: x.calls })),
        })),
    }
  }

  if (view.scenario === RECORDED_SCENARIO)
    throw new Error(`run ${view.id} is a recorded run, not a fleet run`)
  return {
    config: {
      scenario: view.scenario,
      seed: view.seed,
      rollouts: view.rollouts,
      deadline_ms: view.deadline_ms,
      faults: [],
    },
    events,
    outcome: view.outcome ?? 'aborted',
    invariants: view.invariants,
    failures: view.failures,
    checkpoints: [],
    inert_faults: [],
    participantsAt: (step) => cardsAt[clamp(step)] ?? [],
    sessionsAt: (step) => rowsAt[clamp(step)] ?? [],
    invariantsAt,
    sessionDetail: (key, step) => {
      const s = clamp(step)
      const row = rowsAt[s]?.find((r) => r.key === key)
      return row === undefined ? undefined : { step: s, session: row, state: null, prepare: null }
    },
    tables: () => undefined,
    lineage,
  }
}

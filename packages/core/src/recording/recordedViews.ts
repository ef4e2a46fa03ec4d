import { ENV_NAMES } from '../contracts/environments.ts'
import type { EnvName } from '../contracts/environments.ts'
import type { RecordedCheck } from '../contracts/recording.ts'
import { RECORDED_CHECK_INVARIANT } from '../contracts/recording.ts'
import type { TraceEvent } from '../contracts/trace.ts'
import { INVARIANT_IDS } from '../contracts/views.ts'
import type {
  InvariantFailure,
  InvariantId,
  InvariantMap,
  LineageView,
  ParticipantView,
  SessionRow,
} from '../contracts/views.ts'
import type { JsonValue } from '../json.ts'
import { compareParticipants, diagramParticipant } from '../render/diagramParticipant.ts'
import type { SimulationResult } from '../simulator/Simulation.ts'
import type { RecordedDirectoryFacts } from './recordedChecks.ts'
import { recordedChecks } from './recordedChecks.ts'

/** The per-step views of a run, as the API's view routes ask them. */
export type TraceViews = Pick<
  SimulationResult,
  | 'events'
  | 'participantsAt'
  | 'sessionsAt'
  | 'invariantsAt'
  | 'sessionDetail'
  | 'tables'
  | 'lineage'
>

type Json = { readonly [key: string]: JsonValue }
type Card = { -readonly [K in keyof ParticipantView]: ParticipantView[K] }
const objectOf = (v: JsonValue | undefined): Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {}
const textOf = (v: JsonValue | undefined): string | undefined =>
  typeof v === 'string' ? v : undefined
const countOf = (v: JsonValue | undefined): number | undefined =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined
const keysIn = (v: JsonValue | undefined): string[] =>
  Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : []
const isEnv = (v: string | undefined): v is EnvName =>
  v !== undefined && (ENV_NAMES as readonly string[]).includes(v)

/** The phase a control call leaves its participant in when it is accepted. */
const PHASE_AFTER: { readonly [type: string]: string } = {
  'agent.prepare': 'preparing',
  'model.pause': 'preparing',
  'resources.prepare': 'prepared',
  'agent.commit': 'committed_paused',
  'model.commit': 'committed_paused',
  'resources.commit': 'committed_paused',
  'model.restore': 'restored_paused',
  'agent.restore': 'restored_paused',
  'resources.restore': 'restored_paused',
  'model.resume': 'idle',
  'agent.resume': 'idle',
  'resources.resume': 'idle',
}
/** Admission words an answer's `state` may carry (docs/protocol.md §3.2–3.4). */
const ADMISSION = new Set(['accepting', 'draining', 'paused', 'preparing', 'closed'])

/** What an answer says about readiness, in a few words; undefined when it says nothing. */
function readinessOf(type: string, answer: Json): string | undefined {
  if (typeof answer['ready_to_commit'] === 'boolean') {
    if (answer['ready_to_commit']) return 'ready to commit'
    const parts = [
      ['running', answer['running']],
      ['parked without boundary', answer['parked_without_boundary']],
      ['unacknowledged', answer['completed_unacknowledged']],
    ]
      .filter(([, n]) => typeof n === 'number' && n > 0)
      .map(([what, n]) => `${String(n)} ${String(what)}`)
    return `not ready${parts.length > 0 ? `: ${parts.join(', ')}` : ''}`
  }
  const workers = objectOf(answer['workers'])
  const acked = countOf(workers['acknowledged'])
  const expected = countOf(workers['expected'])
  if (acked !== undefined && expected !== undefined)
    return `${acked}/${expected} workers acknowledged`
  const sessions = countOf(answer['sessions'])
  if (sessions !== undefined && type.startsWith('resources.'))
    return `${type.endsWith('restore') ? 'restored' : 'holds'} ${sessions} session${sessions === 1 ? '' : 's'}`
  return undefined
}

/** The black-box checks as the simulated run's invariants they stand for (the others pass). */
export function recordedInvariants(checks: readonly RecordedCheck[]): {
  invariants: InvariantMap
  failures: InvariantFailure[]
} {
  const map = Object.fromEntries(INVARIANT_IDS.map((id) => [id, 'pass'])) as {
    [K in InvariantId]: 'pass' | 'fail'
  }
  const failures: InvariantFailure[] = []
  for (const check of checks) {
    const id = RECORDED_CHECK_INVARIANT[check.id] as InvariantId | undefined
    if (id === undefined || check.status !== 'fail') continue
    map[id] = 'fail'
    failures.push({ id, step: check.step ?? 0, message: check.message })
  }
  return { invariants: map, failures }
}

/**
 * A recorded run's views, from its trace alone (docs/recording.md): participant cards from what
 * each participant's answers said (phase, admission, in-flight, tombstones, readiness, manifest
 * digest), session rows and lineage from the `/run`, model and resources exchanges, and the
 * black-box checks over the events up to each step (their invariants, as far as a check stands
 * for one). Workplace tables and environment states are not on the wire: there are none.
 */
export function recordedViews(
  events: readonly TraceEvent[],
  directories: readonly RecordedDirectoryFacts[],
): TraceViews {
  const total = events.length
  const clamp = (step: number): number => Math.max(0, Math.min(total, Math.floor(step)))

  const ids = new Set<string>(['controller'])
  for (const e of events) ids.add(e.to)
  const order = [...ids].sort((a, b) =>
    compareParticipants(diagramParticipant(a), diagramParticipant(b)),
  )
  const cards = new Map<string, Card>(
    order.map((id) => [
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
        phase: id === 'controller' ? 'idle' : 'unknown',
        admission: id === 'controller' ? 'open' : 'unknown',
        inflight: 0,
        tombstones: [],
        manifest_digest: null,
        checkpoint_id: null,
      },
    ]),
  )
  const rows = new Map<string, SessionRow>()
  const discovered = new Set<string>()
  const cardsAt: (readonly ParticipantView[])[] = []
  const rowsAt: (readonly SessionRow[])[] = []
  let rowsChanged = true
  const setRow = (row: SessionRow): void => {
    rows.set(row.key, row)
    rowsChanged = true
  }
  const snapshot = (): void => {
    cardsAt.push(order.map((id) => ({ ...(cards.get(id) as Card) })))
    const previous = rowsAt[rowsAt.length - 1]
    rowsAt.push(
      previous !== undefined && !rowsChanged
        ? previous
        : [...rows.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
    )
    rowsChanged = false
  }
  const addTombstone = (card: Card, key: string | null): void => {
    if (key !== null && !card.tombstones.includes(key))
      card.tombstones = [...card.tombstones, key].sort()
  }
  const rowFor = (key: string, env: string | undefined, state: SessionRow['state']): void => {
    const existing = rows.get(key)
    const environment = existing?.environment ?? (isEnv(env) ? env : undefined)
    if (environment === undefined) return
    const at = key.lastIndexOf('.a')
    setRow({
      key,
      rollout_id: key.slice(0, at),
      attempt: Number(key.slice(at + 2)),
      environment,
      state,
      revision: existing?.revision ?? null,
      session_id: existing?.session_id ?? null,
      summary: existing?.summary ?? '',
    })
  }

  snapshot()
  for (const e of events) {
    const p = e.payload
    const answer = objectOf(p['response'])
    const card = cards.get(e.to) as Card
    const controller = cards.get('controller') as Card
    const rollout = textOf(p['rollout_id'])
    const attempt = countOf(p['attempt_index'])
    const key = rollout !== undefined && attempt !== undefined ? `${rollout}.a${attempt}` : null
    const checkpoint = textOf(p['checkpoint_id']) ?? null
    const control = e.from === 'controller' && textOf(p['path'])?.startsWith('/ng-control/')
    if (control && e.type !== 'participant.capabilities' && e.type !== 'agent.acknowledge') {
      controller.checkpoint_id = checkpoint ?? controller.checkpoint_id
      controller.phase = e.phase
      controller.admission =
        e.phase === 'prepare' ||
        e.phase === 'retire' ||
        e.phase === 'commit' ||
        e.phase === 'restore'
          ? 'frozen'
          : 'open'
    }
    if (e.type === 'participant.capabilities' && e.outcome === 'ok') {
      const phase = textOf(answer['phase'])
      // A phase the control calls did not lead to: another process answers now (a replacement),
      // and nothing its predecessor said holds for it.
      if (phase !== undefined && phase !== card.phase) {
        if (card.phase !== 'unknown') {
          card.admission = 'unknown'
          card.inflight = 0
          card.manifest_digest = null
          card.tombstones = []
        }
        delete card.readiness
        card.phase = phase
      }
      // Its first answer: an idle participant accepts (docs/protocol.md §4.1).
      if (!discovered.has(e.to) && phase === 'idle') card.admission = 'accepting'
      discovered.add(e.to)
      card.checkpoint_id = textOf(answer['active_checkpoint_id']) ?? null
    }
    if (control && e.outcome === 'ok') {
      const after = PHASE_AFTER[e.type]
      if (after !== undefined) {
        card.phase = after
        card.checkpoint_id = after === 'idle' ? null : checkpoint
      }
      const state = textOf(answer['state']) ?? textOf(answer['admission_state'])
      if (state === 'prepared') card.phase = 'prepared'
      else if (state !== undefined && ADMISSION.has(state)) card.admission = state
      // Resources answer no admission word: prepare and restore close it, resume opens it.
      if (after === 'restored_paused' || e.type === 'resources.prepare') card.admission = 'paused'
      if (e.type === 'resources.resume') card.admission = 'accepting'
      if (answer['ready_to_commit'] === true) card.phase = 'prepared'
      if (state === 'paused' && (e.type === 'model.status' || e.type === 'model.pause'))
        card.phase = 'prepared'
      const inflight = countOf(answer['inflight_total']) ?? countOf(answer['running'])
      if (inflight !== undefined) card.inflight = inflight
      const readiness = readinessOf(e.type, answer)
      if (readiness !== undefined) card.readiness = readiness
      else if (after === 'idle') delete card.readiness
      const digest = textOf(answer['manifest_digest'])
      if (digest !== undefined) card.manifest_digest = digest
      if (e.type === 'model.restore')
        for (const t of [...keysIn(answer['tombstones']), ...keysIn(answer['source_attempts'])])
          addTombstone(card, t)
      if (
        e.type === 'model.abort_inflight' ||
        e.type === 'agent.retire' ||
        e.type === 'resources.retire'
      )
        addTombstone(card, key)
    } else if (control && e.outcome !== 'ok' && e.type !== 'participant.capabilities') {
      if (e.type.endsWith('.restore')) card.phase = 'restore_failed_paused'
      card.readiness = `${textOf(p['path'])?.split('/').pop() ?? 'call'} refused: ${e.outcome}`
    }

    // Session rows: a rollout appears with its first call, ends with its /run's answer.
    if (key !== null) {
      const env =
        textOf(p['environment']) ?? (e.to.startsWith('resources_') ? e.to.slice(10) : undefined)
      if (e.type === 'run.dispatch') {
        const existing = rows.get(key)
        rowFor(
          key,
          env,
          e.outcome === 'ok'
            ? 'terminal'
            : existing?.state === 'exported'
              ? 'exported'
              : 'uncertain',
        )
        const reward = answer['reward']
        const row = rows.get(key)
        if (row !== undefined)
          setRow({
            ...row,
            summary:
              e.outcome === 'ok'
                ? `reward ${typeof reward === 'number' ? reward : '?'}`
                : `${e.outcome}${p['http_status'] === null ? ' (no answer)' : ''}`,
          })
      } else if (!rows.has(key)) rowFor(key, env, 'bound')
    }
    if (e.type === 'agent.commit' && e.outcome === 'ok') {
      const roots = answer['continuation_roots']
      for (const root of Array.isArray(roots) ? roots : []) {
        const r = objectOf(root)
        const rid = textOf(r['rollout_id'])
        const a = countOf(r['attempt_index'])
        if (rid === undefined || a === undefined) continue
        const env = Object.keys(objectOf(r['resource_state_revisions']))[0]
        rowFor(`${rid}.a${a}`, env, 'exported')
      }
    }
    if (e.type === 'agent.restore' && e.outcome === 'ok')
      for (const k of [
        ...keysIn(answer['continuations']),
        ...keysIn(answer['continuation_index']),
      ]) {
        const m = /^(.*)\.a([0-9]+)$/.exec(k)
        if (m === null || rows.has(k)) continue
        const before = rows.get(`${m[1]}.a${Number(m[2]) - 1}`)
        rowFor(k, before?.environment, 'restored')
      }
    snapshot()
  }

  const checksCache = new Map<number, ReturnType<typeof recordedInvariants>>()
  const invariantsAt = (step: number): ReturnType<typeof recordedInvariants> => {
    const s = clamp(step)
    let hit = checksCache.get(s)
    if (hit === undefined) {
      hit = recordedInvariants(recordedChecks(events.slice(0, s), directories))
      if (checksCache.size >= 16) checksCache.delete(checksCache.keys().next().value as number)
      checksCache.set(s, hit)
    }
    return hit
  }

  const lineage = (step: number): LineageView => {
    const s = clamp(step)
    const at = rowsAt[s] ?? []
    type Call = LineageView['rollouts'][number]['attempts'][number]['calls'][number]
    const calls = new Map<string, Call[]>()
    for (const e of events.slice(0, s)) {
      const p = e.payload
      if (e.type !== 'model.request' || e.outcome !== 'ok') continue
      const id = textOf(p['model_call_id'])
      const rid = textOf(p['rollout_id'])
      const a = countOf(p['attempt_index'])
      if (id === undefined || rid === undefined || a === undefined) continue
      const list = calls.get(`${rid}.a${a}`) ?? []
      list.push({
        model_call_id: id,
        parent_call_id: textOf(p['parent_call_id']) ?? null,
        relay: p['relay'] === true,
        step: e.step,
      })
      calls.set(`${rid}.a${a}`, list)
    }
    const rollouts = new Map<string, { environment: EnvName; rows: SessionRow[] }>()
    for (const row of at) {
      const r = rollouts.get(row.rollout_id) ?? { environment: row.environment, rows: [] }
      r.rows.push(row)
      rollouts.set(row.rollout_id, r)
    }
    const statusOf = (row: SessionRow, later: boolean) =>
      row.state === 'terminal'
        ? ('completed' as const)
        : row.state === 'retired'
          ? ('retired' as const)
          : later || row.state === 'exported'
            ? ('continued' as const)
            : ('running' as const)
    return {
      rollouts: [...rollouts.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([rollout_id, r]) => {
          const sorted = r.rows.sort((a, b) => a.attempt - b.attempt)
          return {
            rollout_id,
            environment: r.environment,
            attempts: sorted.map((row, i) => ({
              attempt: row.attempt,
              status: statusOf(row, i < sorted.length - 1),
              calls: calls.get(row.key) ?? [],
            })),
          }
        }),
    }
  }

  return {
    events,
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

import { ENV_NAMES, sortSessions } from '@cutover/core/contracts'
import type {
  InvariantMap,
  SessionColumn,
  SessionRow,
  SessionsView,
  SessionsWindow,
  StepView,
  TableView,
  TraceEvent,
} from '@cutover/core/contracts'

/** Every invariant passing. */
export const ALL_PASS: InvariantMap = {
  'manifest-last': 'pass',
  'fenced-attempt-silent': 'pass',
  'revision-monotonic': 'pass',
  'restore-all-or-nothing': 'pass',
  'resume-order': 'pass',
  'relay-once': 'pass',
  'call-id-unique': 'pass',
  'acks-before-prepare': 'pass',
  'token-partition': 'pass',
  'durable-before-ack': 'pass',
  'egress-fenced': 'pass',
  equivalence: 'pass',
}

/** `count` session rows dealt round-robin across the environments, as the API lists them. */
export function sessionRows(count: number): SessionRow[] {
  const width = String(Math.max(count - 1, 0)).length
  return Array.from({ length: count }, (_, i) => {
    const rollout = `r${String(i).padStart(width, '0')}`
    return {
      key: `${rollout}.a0`,
      rollout_id: rollout,
      attempt: 0,
      environment: ENV_NAMES[i % ENV_NAMES.length] ?? 'counter',
      state: i % 7 === 0 ? 'retired' : 'bound',
      revision: i % 5,
      session_id: `s${i}`,
      summary: `count ${i}`,
    }
  })
}

/**
 * A small trace: two run events, a prepare, a retire, a commit and a restore (hand-made: empty
 * payloads).
 */
export const TRACE: TraceEvent[] = (
  [
    ['run', 'controller', 'agent', 'run.dispatch'],
    ['run', 'agent', 'policy_model', 'model.request'],
    ['prepare', 'controller', 'agent', 'agent.prepare'],
    ['prepare', 'controller', 'policy_model', 'model.pause'],
    ['retire', 'controller', 'agent', 'agent.retire'],
    ['commit', 'controller', 'directory', 'directory.write'],
    ['restore', 'controller', 'agent', 'agent.restore'],
  ] as const
).map(
  ([phase, from, to, type], i) =>
    ({
      step: i + 1,
      time_ms: i * 10,
      phase,
      from,
      to,
      type,
      payload: {},
      outcome: 'ok',
    }) as TraceEvent,
)

/** A StepView over TRACE at `step`, with a diagram of the whole trace and `step` highlighted. */
export function stepView(step: number): StepView {
  const lines = TRACE.map((e) => `${e.from}->>${e.to}: ${e.step === step ? '▶ ' : ''}${e.type}`)
  const plain = TRACE.map((e) => `${e.from}->>${e.to}: ${e.type}`)
  const head = ['sequenceDiagram', 'participant controller', 'participant agent']
  return {
    step,
    total: TRACE.length,
    event: TRACE[step - 1] ?? null,
    phase: TRACE[step - 1]?.phase ?? null,
    participants: [],
    invariants: ALL_PASS,
    failures: [],
    mermaid: [...head, ...lines].join('\n'),
    window: { from: 1, to: TRACE.length },
    diagram: {
      source: [...head, ...plain].join('\n'),
      highlight: step - 1,
      steps: TRACE.map((e) => e.step),
    },
  }
}

/** The SessionsView at `step` of the run of TRACE: three sessions, one per environment. */
export function sessionsView(step: number): SessionsView {
  return { step, total: TRACE.length, sessions: sessionRows(3) }
}

/**
 * The server's answer to `GET /api/runs/:id/sessions?…` over `rowsAt(step)`: the whole list
 * (SessionsView), or with window parameters the window sorted and filtered by core's
 * `sortSessions`, as the API answers it. Undefined when `path` is not a sessions list.
 */
export function sessionsAnswer(
  path: string,
  rowsAt: (step: number) => readonly SessionRow[],
): SessionsView | SessionsWindow | undefined {
  const match = /^\/api\/runs\/[^/]+\/sessions\?(.*)$/.exec(path)
  if (!match) return undefined
  const query = new URLSearchParams(match[1])
  const step = Number(query.get('step') ?? TRACE.length)
  const all = rowsAt(step)
  if (!query.has('offset')) return { step, total: TRACE.length, sessions: all }
  const sort = {
    column: (query.get('sort') ?? 'rollout_id') as SessionColumn,
    direction: query.get('dir') === 'desc' ? ('desc' as const) : ('asc' as const),
  }
  const environment = query.get('environment')
  const rows = sortSessions(
    environment === null ? all : all.filter((r) => r.environment === environment),
    query.get('q') ?? '',
    sort,
  )
  const offset = Math.min(Number(query.get('offset')), rows.length)
  const window: SessionsWindow = {
    step,
    total: TRACE.length,
    count: all.length,
    matched: rows.length,
    offset,
    sessions: rows.slice(offset, offset + Number(query.get('limit') ?? 1000)),
  }
  const key = query.get('session')
  if (key === null) return window
  const index = rows.findIndex((r) => r.key === key)
  return {
    ...window,
    selected: { key, exists: all.some((r) => r.key === key), index: index >= 0 ? index : null },
  }
}

/** The emails table of a Workplace session after one send and one edit, diffed against prepare. */
export const EMAILS_TABLE: TableView = {
  name: 'emails',
  columns: ['email_id', 'sender', 'subject'],
  rows: [
    { label: 0, cells: ['00000000', 'a@atlas.com', 'Quarterly plan'], status: 'same', changed: [] },
    {
      label: 1,
      cells: ['00000001', 'b@atlas.com', 'Re: budget (edited)'],
      status: 'changed',
      changed: [2],
      was: ['00000001', 'b@atlas.com', 'Re: budget'],
    },
    { label: 2, cells: ['00000002', 'me@atlas.com', 'New hire'], status: 'added', changed: [] },
  ],
  removed: [{ label: 3, cells: ['00000003', 'c@atlas.com', 'Old thread'] }],
}

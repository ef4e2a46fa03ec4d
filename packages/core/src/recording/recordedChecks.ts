import type { RecordedCheck, RecordedCheckId, RecordedCheckStatus } from '../contracts/recording.ts'
import { RECORDED_CHECK_IDS } from '../contracts/recording.ts'
import type { TraceEvent } from '../contracts/trace.ts'
import type { JsonValue } from '../json.ts'
import type { ControlOperation } from './exchangeRoute.ts'
import { exchangeRoute } from './exchangeRoute.ts'

/**
 * What the edge found in one checkpoint directory a recording names: whether it is there, its
 * aggregate manifest (the time it appeared and the participants it names) and the problems of
 * what the participants wrote into it (their namespaces; the controller's own files are the
 * publish checks' business).
 */
export interface RecordedDirectoryFacts {
  readonly checkpoint_id: string
  readonly path: string
  readonly exists: boolean
  readonly aggregate: {
    /** Wall-clock seconds the manifest file was last written (its mtime), or null. */
    readonly appeared_s: number | null
    readonly participants: readonly { readonly participant_id: string; readonly name: string }[]
  } | null
  readonly problems: readonly {
    readonly code: string
    readonly path: string | null
    readonly message: string
  }[]
}

type Json = { readonly [key: string]: JsonValue }
const objectOf = (v: JsonValue | undefined): Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {}
const textOf = (v: JsonValue | undefined): string | undefined =>
  typeof v === 'string' ? v : undefined

/** One recorded event as the checks read it. */
interface Exchange {
  readonly step: number
  readonly line: number
  /** Trace participant id (`resources_counter`) and the recording's name (`counter`). */
  readonly to: string
  readonly name: string
  readonly type: string
  readonly plane: 'control' | 'data'
  readonly op: ControlOperation | string
  readonly ok: boolean
  readonly status: number | null
  readonly start: number
  readonly end: number
  readonly checkpoint: string | undefined
  readonly key: string | null
  readonly rollout: string | undefined
  readonly request: Json
  readonly response: JsonValue
  readonly event: TraceEvent
}

function exchangesOf(events: readonly TraceEvent[]): Exchange[] {
  const out: Exchange[] = []
  for (const e of events) {
    const p = e.payload
    const path = textOf(p['path'])
    const method = textOf(p['method'])
    if (path === undefined || method === undefined || typeof p['exchange'] !== 'number') continue
    const route = exchangeRoute(method, path)
    const rollout = textOf(p['rollout_id'])
    const attempt = p['attempt_index']
    const status = typeof p['http_status'] === 'number' ? p['http_status'] : null
    out.push({
      step: e.step,
      line: p['exchange'],
      to: e.to,
      name: textOf(p['participant']) ?? e.to,
      type: e.type,
      plane: route.plane,
      op: route.operation,
      ok: e.outcome === 'ok',
      status,
      start: typeof p['wall_start_s'] === 'number' ? p['wall_start_s'] : 0,
      end: typeof p['wall_end_s'] === 'number' ? p['wall_end_s'] : 0,
      checkpoint: textOf(p['checkpoint_id']),
      key: rollout !== undefined && typeof attempt === 'number' ? `${rollout}.a${attempt}` : null,
      rollout,
      request: objectOf(p['request']),
      response: p['response'] ?? null,
      event: e,
    })
  }
  return out
}

/** `agent POST /ng-control/v1/agent-checkpoint/prepare (exchange 6)`. */
const named = (x: Exchange): string =>
  `${x.name} ${textOf(x.event.payload['method']) ?? ''} ${textOf(x.event.payload['path']) ?? ''} (exchange ${x.line})`
const answered = (x: Exchange): string => {
  if (x.status === null)
    return `got no answer (${textOf(x.event.payload['transport_error']) ?? 'transport error'})`
  const code = textOf(x.event.payload['error_code'])
  const message = textOf(x.event.payload['message'])
  return `answered ${x.status}${code === undefined ? '' : ` ${code}`}${message === undefined || message === '' ? '' : `: ${message}`}`
}
const list = (items: Iterable<string>): string => [...items].sort().join(', ')

type Verdict = {
  readonly status: RecordedCheckStatus
  readonly at?: Exchange | undefined
  readonly message: string
}
const pass = (message: string): Verdict => ({ status: 'pass', message })
const unseen = (message: string): Verdict => ({ status: 'not_observed', message })
const fail = (at: Exchange | undefined, message: string): Verdict => ({
  status: 'fail',
  at,
  message,
})

/** The checkpoints in the order the recording first names them in a control call. */
function checkpointsOf(xs: readonly Exchange[], ops: readonly string[]): string[] {
  const seen: string[] = []
  for (const x of xs)
    if (x.plane === 'control' && ops.includes(x.op) && x.checkpoint !== undefined)
      if (!seen.includes(x.checkpoint)) seen.push(x.checkpoint)
  return seen
}

const controlOf = (xs: readonly Exchange[], op: string, checkpoint: string): Exchange[] =>
  xs.filter((x) => x.plane === 'control' && x.op === op && x.checkpoint === checkpoint)

function controlAccepted(xs: readonly Exchange[]): Verdict {
  const control = xs.filter((x) => x.plane === 'control')
  if (control.length === 0) return unseen('the recording holds no control call')
  const refused = control.find((x) => !x.ok)
  return refused === undefined
    ? pass(`all ${control.length} control calls were accepted`)
    : fail(refused, `${named(refused)} ${answered(refused)}`)
}

function errorEnvelope(xs: readonly Exchange[]): Verdict {
  const refused = xs.filter((x) => x.plane === 'control' && x.status !== null && !x.ok)
  if (refused.length === 0) return unseen('no control call was refused with an answer')
  for (const x of refused) {
    const error = objectOf(objectOf(x.response)['error'])
    const text = textOf(error['message']) ?? textOf(error['detail'])
    if (typeof error['code'] !== 'string' || text === undefined)
      return fail(
        x,
        `${named(x)} answered ${x.status} with ${JSON.stringify(x.response).slice(0, 160)}, not {"error": {"code", "message"}}`,
      )
  }
  return pass(`all ${refused.length} refusals carry {"error": {"code", "message" or "detail"}}`)
}

/** The identities a receipt acknowledgement names (flat, wrapped in `receipt`, or a batch). */
function acknowledged(x: Exchange): string[] {
  const keyOf = (r: Json): string | null =>
    typeof r['rollout_id'] === 'string' && typeof r['attempt_index'] === 'number'
      ? `${r['rollout_id']}.a${r['attempt_index']}`
      : null
  const receipts = [x.request, objectOf(x.request['receipt'])]
  const batch = x.request['executions']
  if (Array.isArray(batch)) for (const r of batch) receipts.push(objectOf(r))
  return receipts.map(keyOf).filter((k): k is string => k !== null)
}

function acksBeforePrepare(xs: readonly Exchange[]): Verdict {
  const prepares = xs.filter((x) => x.type === 'agent.prepare')
  if (prepares.length === 0) return unseen('the agent was never asked to prepare')
  let delivered = 0
  for (const prepare of prepares) {
    const acks = new Set(
      xs
        .filter((x) => x.type === 'agent.acknowledge' && x.ok && x.end <= prepare.start)
        .flatMap(acknowledged),
    )
    for (const run of xs) {
      if (run.type !== 'run.dispatch' || !run.ok || run.end > prepare.start || run.key === null)
        continue
      if (objectOf(objectOf(run.response)['receipt'])['rollout_id'] === undefined) continue
      delivered++
      if (!acks.has(run.key))
        return fail(
          prepare,
          `${run.key}'s result was delivered (exchange ${run.line}) before the agent was asked to prepare (exchange ${prepare.line}) and was not acknowledged before it`,
        )
    }
  }
  return pass(
    delivered === 0
      ? 'no result was delivered before a prepare'
      : `every result delivered before a prepare (${delivered}) was acknowledged first`,
  )
}

function preparedBeforeCommit(xs: readonly Exchange[]): Verdict {
  const checkpoints = checkpointsOf(xs, ['commit'])
  if (checkpoints.length === 0) return unseen('no commit was sent')
  for (const ck of checkpoints) {
    const commits = controlOf(xs, 'commit', ck)
    const first = Math.min(...commits.map((c) => c.start))
    const prepared = new Set(
      controlOf(xs, 'prepare', ck)
        .filter((p) => p.ok && p.end <= first)
        .map((p) => p.to),
    )
    const unprepared = commits.find((c) => !prepared.has(c.to))
    if (unprepared !== undefined)
      return fail(
        unprepared,
        `${unprepared.to} was asked to commit ${ck} (exchange ${unprepared.line}) without a prepare it had accepted before the first commit was sent`,
      )
  }
  return pass(`every participant committed had accepted its prepare first (${list(checkpoints)})`)
}

/** The participants a checkpoint's commits went to, and whether each answered one 2xx. */
function committers(xs: readonly Exchange[], ck: string): Map<string, Exchange | null> {
  const out = new Map<string, Exchange | null>()
  for (const c of controlOf(xs, 'commit', ck)) {
    if (!out.has(c.to)) out.set(c.to, null)
    if (c.ok && out.get(c.to) === null) out.set(c.to, c)
  }
  return out
}

/**
 * How far a file's modification time may trail the wall clock that timed the exchanges: the
 * kernel stamps files from its coarse clock, up to one tick (a few ms) behind, so a manifest a
 * controller wrote right after a commit's answer may carry an earlier time than that answer's end.
 */
const FILE_CLOCK_SLACK_S = 0.01

function committedBeforeManifest(
  xs: readonly Exchange[],
  dirs: readonly RecordedDirectoryFacts[],
): Verdict {
  const end = Math.max(0, ...xs.map((x) => x.end))
  let checked = 0
  let copied = 0
  for (const ck of checkpointsOf(xs, ['commit'])) {
    const appeared = dirs.find((d) => d.checkpoint_id === ck)?.aggregate?.appeared_s
    if (appeared === undefined || appeared === null) continue
    // A manifest written after the recording ended (a copied or checked-out directory) says
    // nothing about the order.
    if (appeared > end + 2) {
      copied++
      continue
    }
    checked++
    const commits = controlOf(xs, 'commit', ck)
    for (const participant of committers(xs, ck).keys()) {
      const own = commits.filter((c) => c.to === participant)
      if (own.some((c) => c.ok && c.end <= appeared + FILE_CLOCK_SLACK_S)) continue
      const late = own.find((c) => c.ok) ?? own[0]
      return fail(
        late,
        `${ck}'s aggregate manifest appeared (at Unix time ${appeared.toFixed(3)} s) before ${participant} had answered a commit (exchange ${late?.line ?? '?'})`,
      )
    }
  }
  if (checked > 0) return pass('every aggregate manifest appeared after every commit answered')
  return unseen(
    copied > 0
      ? "the aggregate manifest's file time is after the recording ended (a copied or imported directory): the order of its appearance cannot be told"
      : 'no committed checkpoint has an aggregate manifest to compare with',
  )
}

function publishedAfterCommit(
  xs: readonly Exchange[],
  dirs: readonly RecordedDirectoryFacts[],
): Verdict {
  let published = 0
  let pending = ''
  for (const ck of checkpointsOf(xs, ['commit'])) {
    const who = committers(xs, ck)
    if ([...who.values()].some((c) => c === null)) continue // a commit refused: not published
    const dir = dirs.find((d) => d.checkpoint_id === ck)
    if (dir === undefined || !dir.exists) {
      pending = `${ck}: its directory is not known or not there`
      continue
    }
    if (dir.aggregate !== null) {
      published++
      continue
    }
    const last = Math.max(...controlOf(xs, 'commit', ck).map((c) => c.end))
    const next = xs.find(
      (x) =>
        x.plane === 'control' && x.start >= last && !(x.op === 'commit' && x.checkpoint === ck),
    )
    if (next !== undefined)
      return fail(
        next,
        `every participant answered its commit of ${ck} (${list(who.keys())}) but its aggregate manifest never appeared in ${dir.path}; the controller went on with ${named(next)}`,
      )
    pending = `${ck} is not published yet`
  }
  if (published > 0 && pending === '') return pass(`${published} committed checkpoint(s) published`)
  return unseen(pending === '' ? 'no checkpoint was committed by every participant' : pending)
}

/** The participant whose namespace holds a directory path (`resources/counter/…`). */
function ownerOf(path: string | null): string | null {
  if (path === null) return null
  const [top, server] = path.split('/')
  if (top === 'agent') return 'agent'
  if (top === 'resources' && server !== undefined) return `resources_${server}`
  if (top === 'model-ledger' && server !== undefined)
    return server === 'policy' ? 'policy_model' : server
  return null
}

function commitVerifies(xs: readonly Exchange[], dirs: readonly RecordedDirectoryFacts[]): Verdict {
  let verified = 0
  for (const ck of checkpointsOf(xs, ['commit'])) {
    const dir = dirs.find((d) => d.checkpoint_id === ck)
    if (dir === undefined || !dir.exists) continue
    const who = committers(xs, ck)
    for (const problem of dir.problems) {
      const owner = ownerOf(problem.path)
      // Only what a participant said it committed counts (a namespace still being written does
      // not).
      const commit = owner === null ? undefined : (who.get(owner) ?? undefined)
      if (owner !== null && commit === undefined) continue
      return fail(
        commit,
        `${problem.code} at ${problem.path ?? dir.path}: ${problem.message}${commit === undefined ? '' : ` (committed by ${commit.to}, exchange ${commit.line})`}`,
      )
    }
    verified++
  }
  return verified > 0
    ? pass('what the participants committed verifies')
    : unseen('no committed checkpoint directory is there to verify')
}

function manifestParticipants(
  xs: readonly Exchange[],
  dirs: readonly RecordedDirectoryFacts[],
): Verdict {
  const discovery = xs.filter((x) => x.op === 'capabilities' && x.ok)
  if (discovery.length === 0) return unseen('no participant answered discovery')
  let compared = 0
  for (const dir of dirs) {
    if (dir.aggregate === null) continue
    const restore = controlOf(xs, 'restore', dir.checkpoint_id)[0]
    const before = discovery.filter((x) => restore === undefined || x.start <= restore.start)
    if (before.length === 0) continue
    const names = new Set(before.map((x) => textOf(objectOf(x.response)['name']) ?? x.name))
    const listed = new Set(dir.aggregate.participants.map((p) => p.participant_id))
    compared++
    const extra = [...listed].filter((id) => !names.has(id))
    const missing = [...names].filter((n) => !listed.has(n))
    if (extra.length > 0 || missing.length > 0)
      return fail(
        restore ?? before[before.length - 1],
        `${dir.checkpoint_id}'s aggregate manifest lists participant_id ${list(listed)}, but the fleet's capabilities name ${list(names)}${extra.length > 0 ? ` (${list(extra)} answered no discovery)` : ''}`,
      )
  }
  return compared > 0
    ? pass('the aggregate manifests name the participants that answered discovery')
    : unseen('no aggregate manifest to compare with the discovered fleet')
}

function resumeAfterRestore(xs: readonly Exchange[]): Verdict {
  const checkpoints = checkpointsOf(xs, ['restore'])
  if (checkpoints.length === 0) return unseen('no restore was sent')
  for (const ck of checkpoints) {
    const restores = controlOf(xs, 'restore', ck)
    // After a refused restore the resumes are the abort's (refused-restore-resumes-none).
    if (restores.some((r) => !r.ok && r.status !== null)) continue
    const firstRestore = Math.min(...restores.map((r) => r.start))
    const resumes = controlOf(xs, 'resume', ck).filter((r) => r.start >= firstRestore)
    const first = resumes[0]
    if (first === undefined) continue
    const expected = new Set([...restores, ...resumes].map((x) => x.to))
    const restored = new Set(restores.filter((r) => r.ok && r.end <= first.start).map((r) => r.to))
    const missing = [...expected].filter((p) => !restored.has(p))
    if (missing.length > 0)
      return fail(
        first,
        `${first.to} was resumed (exchange ${first.line}) before ${list(missing)} had restored ${ck}`,
      )
  }
  return pass(`every resume came after every restore succeeded (${list(checkpoints)})`)
}

function refusedRestoreResumesNone(xs: readonly Exchange[]): Verdict {
  let refusals = 0
  for (const ck of checkpointsOf(xs, ['restore'])) {
    const restores = controlOf(xs, 'restore', ck)
    const refused = restores.find((r) => !r.ok)
    if (refused === undefined) continue
    refusals++
    const restored = new Set(restores.filter((r) => r.ok).map((r) => r.to))
    const resumed = controlOf(xs, 'resume', ck).find(
      (r) => r.ok && r.start >= refused.end && restored.has(r.to),
    )
    if (resumed !== undefined)
      return fail(
        resumed,
        `${refused.to}'s restore of ${ck} was refused (exchange ${refused.line}), yet ${resumed.to}, which had restored it, was resumed (exchange ${resumed.line})`,
      )
  }
  return refusals === 0
    ? unseen('no restore was refused')
    : pass('after each refused restore, no participant that had restored was resumed')
}

const keysIn = (v: JsonValue | undefined): string[] =>
  Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : []

/** The previous attempt a restored continuation key (`r1.a1`) replaces (`r1.a0`). */
const previous = (key: string): string | null => {
  const m = /^(.*)\.a([0-9]+)$/.exec(key)
  return m === null || m[2] === '0' ? null : `${m[1]}.a${Number(m[2]) - 1}`
}

function fencedAttemptSilent(xs: readonly Exchange[]): Verdict {
  const fenced = new Map<string, Exchange>()
  const fence = (key: string | null, by: Exchange): void => {
    if (key !== null && !fenced.has(key)) fenced.set(key, by)
  }
  for (const x of xs) {
    if (!x.ok) continue
    const answer = objectOf(x.response)
    if (x.type === 'model.restore')
      for (const key of [...keysIn(answer['tombstones']), ...keysIn(answer['source_attempts'])])
        fence(key, x)
    if (x.type === 'agent.restore')
      for (const key of [
        ...keysIn(answer['continuations']),
        ...keysIn(answer['continuation_index']),
      ])
        fence(previous(key), x)
    if (
      x.type === 'model.abort_inflight' ||
      x.type === 'agent.retire' ||
      x.type === 'resources.retire'
    )
      if (answer['retired'] !== false) fence(x.key, x)
  }
  if (fenced.size === 0) return unseen('no attempt was fenced')
  for (const x of xs) {
    if (x.plane !== 'data' || !x.ok || x.key === null) continue
    const by = fenced.get(x.key)
    if (by !== undefined && x.start >= by.end)
      return fail(
        x,
        `${x.key} was fenced by ${named(by)}, yet ${named(x)} answered ${x.status} after it`,
      )
  }
  return pass(`${fenced.size} fenced attempt(s), none answered after its fence`)
}

function relayOnce(xs: readonly Exchange[]): Verdict {
  const parents = new Map<string, string>()
  for (const x of xs)
    if (x.type === 'model.restore' && x.ok)
      for (const [key, parent] of Object.entries(objectOf(objectOf(x.response)['relays'])))
        if (typeof parent === 'string') parents.set(key.replace(/\.a[0-9]+$/, ''), parent)
  if (parents.size === 0) return unseen('no model restore named a relay')
  const calls = xs.filter(
    (x) => x.type === 'model.request' && x.ok && x.rollout !== undefined && parents.has(x.rollout),
  )
  if (calls.length === 0)
    return unseen(
      "no model call of a restored rollout was recorded (the agent's model calls are recorded when the agent is pointed at the model's proxy)",
    )
  if (calls.every((x) => typeof x.event.payload['parent_call_id'] !== 'string'))
    return unseen("the model's answers do not name their parent call")
  const relays = new Map<string, Exchange>()
  for (const x of calls) {
    const rollout = x.rollout as string
    if (x.event.payload['parent_call_id'] !== parents.get(rollout)) continue
    const first = relays.get(rollout)
    if (first !== undefined)
      return fail(
        x,
        `${rollout}'s restored parent ${parents.get(rollout) ?? ''} was relayed twice: exchange ${first.line} and exchange ${x.line}`,
      )
    relays.set(rollout, x)
  }
  return pass(`${relays.size} restored rollout(s) relayed their parent at most once`)
}

/**
 * The checks a black box allows over a recorded trace (docs/recording.md): each
 * passes, fails with the exchange that breaks it (its step and line), or was not observed. Pure:
 * the directories come as facts the edge read.
 */
export function recordedChecks(
  events: readonly TraceEvent[],
  directories: readonly RecordedDirectoryFacts[],
): RecordedCheck[] {
  const xs = exchangesOf(events)
  const verdicts: { readonly [C in RecordedCheckId]: () => Verdict } = {
    'control-accepted': () => controlAccepted(xs),
    'error-envelope': () => errorEnvelope(xs),
    'acks-before-prepare': () => acksBeforePrepare(xs),
    'prepared-before-commit': () => preparedBeforeCommit(xs),
    'committed-before-manifest': () => committedBeforeManifest(xs, directories),
    'published-after-commit': () => publishedAfterCommit(xs, directories),
    'commit-verifies': () => commitVerifies(xs, directories),
    'manifest-participants': () => manifestParticipants(xs, directories),
    'resume-after-restore': () => resumeAfterRestore(xs),
    'refused-restore-resumes-none': () => refusedRestoreResumesNone(xs),
    'fenced-attempt-silent': () => fencedAttemptSilent(xs),
    'relay-once': () => relayOnce(xs),
  }
  return RECORDED_CHECK_IDS.map((id) => {
    const v = verdicts[id]()
    return {
      id,
      status: v.status,
      step: v.status === 'fail' ? (v.at?.step ?? null) : null,
      exchange: v.status === 'fail' ? (v.at?.line ?? null) : null,
      message: v.message,
    }
  })
}

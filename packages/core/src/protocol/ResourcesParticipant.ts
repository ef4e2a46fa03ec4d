// Longer than ~400 lines on purpose: the resources participant's data plane (binding, revisions,
// receipts, locks) and its control routes guard the same sessions under one fence
// (docs/protocol.md §3.4, §4.4); the session bookkeeping itself lives in SessionTable.
import type { CutoverError, ErrorCode } from '../contracts/errors.ts'
import { cutoverError, errorBody } from '../contracts/errors.ts'
import type { SessionState } from '../contracts/views.ts'
import type { EnvironmentServer, EnvResponse } from '../environments/EnvironmentServer.ts'
import type { ResourceSnapshot } from '../records/ResourceSnapshot.ts'
import { RESOURCE_SNAPSHOT_SCHEMA_VERSION } from '../records/ResourceSnapshot.ts'
import { restoreCheckpointStates } from '../environments/restoreCheckpointStates.ts'
import type { JsonValue } from '../json.ts'
import { canonicalJson } from '../json.ts'
import type { Digest } from '../ports.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import type { CheckpointDirectory } from '../directory/CheckpointDirectory.ts'
import type { ResourcesCommitResult } from '../directory/commitResourcesNamespace.ts'
import { commitResourcesSteps } from '../directory/commitResourcesNamespace.ts'
import { loadReplacementSteps } from '../directory/loadReplacementSet.ts'
import type { VerifySteps } from '../directory/verifySteps.ts'
import { runSteps } from '../directory/verifySteps.ts'
import { loadResourcesNamespace } from '../directory/loadResourcesNamespace.ts'
import { decodeUtf8, encodeUtf8 } from '../utf8.ts'
import { base64Decode } from './base64Decode.ts'
import { base64Encode } from './base64Encode.ts'
import { ControlFence, FENCE_OPS, forRequest } from './ControlFence.ts'
import { fencedCommitSteps } from './fencedCommit.ts'
import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import { executionKey } from '../records/ExecutionIdentity.ts'
import type { ReceiptHistoryLimits, SessionMeta } from './SessionTable.ts'
import { SessionTable } from './SessionTable.ts'
import type { TombstoneReader } from './TombstoneSet.ts'
import { TombstoneSet } from './TombstoneSet.ts'

/** A transport-neutral resources request (the HTTP layer maps headers onto these fields). */
export interface ResourcesRequest {
  readonly path: string
  readonly method: string
  readonly body: unknown
  /** From `x-nemo-gym-rollout-id` / `x-nemo-gym-attempt-index` (or the rollout prefix). */
  readonly identity?: ExecutionIdentity
  /** `x-nemo-gym-resource-request-id`. */
  readonly requestId?: string
  /** `x-nemo-gym-expected-resource-state-revision`. */
  readonly expectedRevision?: number
  /** The session cookie's id (used when there is no identity binding). */
  readonly sessionId?: string
  /** The raw query string (without `?`), part of a mutation's input digest (§5.3). */
  readonly query?: string
  /** Every request cookie as `[name, value]`, part of a mutation's input digest (sorted there). */
  readonly cookies?: readonly (readonly [string, string])[]
  /**
   * The transport's encoding of a successful answer (the Gym routes: Python's JSON through the
   * route's response model). A mutation receipt records exactly these bytes; without it the body is
   * recorded as `JSON.stringify` writes it.
   */
  readonly encodeAnswer?: (status: number, body: JsonValue) => Uint8Array
}

/** The answer: an HTTP-shaped response plus the protocol facts a transport sends as headers. */
export interface ResourcesResponse {
  readonly status: number
  readonly body: JsonValue
  /** `x-nemo-gym-resource-state-revision` after the request, when the session is tracked. */
  readonly revision: number | null
  readonly revisionBefore: number | null
  /** The session id to return in the cookie. */
  readonly sessionId: string | null
  /** The protocol error code when refused (the body is then `{error:{code,message}}`). */
  readonly code: ErrorCode | null
  /** True when a stored receipt was replayed instead of running the handler. */
  readonly replayed: boolean
  readonly closed: boolean
  /** The session after the request (immutable env sessions: safe to keep for views). */
  readonly session?: unknown
  /**
   * The exact body bytes to send, when a mutation receipt recorded them: the first answer and
   * every replay of its request id send these same bytes (§8 "replayed byte-for-byte").
   */
  readonly bytes?: Uint8Array
}

/** Mutation receipts kept per session (docs/protocol.md §8: 1 024 per session). */
export const RECEIPT_CAPACITY = 1024

/** One session row for views. */
export interface ResourcesSessionInfo {
  readonly key: string
  readonly rollout_id: string
  readonly attempt: number
  readonly state: SessionState
  readonly revision: number | null
  readonly session_id: string | null
}

/**
 * The resources participant (docs/protocol.md §3.4, §4.4, §7.1), generic over an environment:
 * binding after a successful start, `(rollout_id, attempt_index)` → session map, revisions that
 * rise only on success, idempotent mutation receipts by request id, uncertain sessions, export at
 * prepare, retire, and restore of the complete replacement set under N+1 (all or nothing).
 */
export class ResourcesParticipant<TSession> {
  readonly serverName: string
  readonly fence = new ControlFence()
  readonly env: EnvironmentServer<TSession>
  readonly #digest: Digest
  #accepting = true
  #servedUntracked = false
  #servedStateful = false
  #nextSession = 1
  readonly #sessions: SessionTable<TSession>
  readonly #tombstones = new TombstoneSet()
  #prepared: ResourceSnapshot[] = []
  #lastCommitDigest: string | null = null
  #restoreExpected: boolean

  constructor(
    env: EnvironmentServer<TSession>,
    digest: Digest,
    options: {
      serverName?: string
      restoreExpected?: boolean
      receiptHistory?: ReceiptHistoryLimits
    } = {},
  ) {
    this.#sessions = new SessionTable<TSession>(options.receiptHistory)
    this.env = env
    this.#digest = digest
    this.serverName = options.serverName ?? env.name
    this.#restoreExpected = options.restoreExpected ?? false
    if (this.#restoreExpected) this.#accepting = false
  }

  get accepting(): boolean {
    return this.#accepting
  }
  get manifestDigest(): string | null {
    return this.#lastCommitDigest
  }
  /** Fenced attempts, sorted. */
  tombstones(): readonly string[] {
    return this.#tombstones.sorted()
  }
  /** The tombstones as views read them (a count now, the sorted list later). */
  get tombstoneSet(): TombstoneReader {
    return this.#tombstones
  }
  /** The live session of an execution (for views and equivalence). */
  sessionOf(id: ExecutionIdentity): TSession | undefined {
    const meta = this.#sessions.bound(executionKey(id))
    return meta === undefined ? undefined : this.#sessions.state(meta.sessionId)
  }
  /** The session id an execution is bound to, or null. */
  sessionIdOf(id: ExecutionIdentity): string | null {
    return this.#sessions.bound(executionKey(id))?.sessionId ?? null
  }
  revisionOf(id: ExecutionIdentity): number | null {
    return this.#sessions.bound(executionKey(id))?.revision ?? null
  }
  /** Snapshots captured by the last prepare. */
  preparedSnapshots(): readonly ResourceSnapshot[] {
    return this.#prepared
  }
  sessions(): readonly ResourcesSessionInfo[] {
    const out: ResourcesSessionInfo[] = []
    for (const m of this.#sessions.boundSessions())
      out.push({
        key: executionKey(m.id),
        rollout_id: m.id.rollout_id,
        attempt: m.id.attempt_index,
        state: m.uncertain
          ? 'uncertain'
          : m.restored
            ? 'restored'
            : this.#accepting
              ? 'bound'
              : 'exported',
        revision: m.revision,
        session_id: m.sessionId,
      })
    return out
  }

  #refuse(code: ErrorCode, message: string, meta?: SessionMeta): ResourcesResponse {
    return {
      status: 409,
      body: errorBody(code, message) as unknown as JsonValue,
      revision: meta?.revision ?? null,
      revisionBefore: meta?.revision ?? null,
      sessionId: meta?.sessionId ?? null,
      code,
      replayed: false,
      closed: false,
    }
  }

  /**
   * A mutation's input digest (§5.3): method, path, query, canonical content type, sorted cookies
   * and body. An empty query and no cookies are left out, so requests without them (the
   * simulator's) keep the digest they always had.
   */
  #inputDigest(req: ResourcesRequest): string {
    // Canonical JSON sorts the keys, so optional fields are set in place rather than spread in
    // (this runs once per environment step; a spread between properties is slow on this V8).
    const input: { [key: string]: JsonValue } = { method: req.method.toUpperCase(), path: req.path }
    if (req.query !== undefined && req.query !== '') input['query'] = req.query
    input['content_type'] = 'application/json'
    if (req.cookies !== undefined && req.cookies.length > 0)
      input['cookies'] = [...req.cookies]
        .map(([k, v]) => [k, v])
        .sort((a, b) => (a.join('=') < b.join('=') ? -1 : a.join('=') > b.join('=') ? 1 : 0))
    input['body'] = (req.body ?? null) as JsonValue
    return this.#digest.sha256Hex(canonicalJson(input))
  }

  /** The data plane: one Gym route of this environment, checkpoint-managed (§4.4, §7.1). */
  handleRequest(req: ResourcesRequest): ResourcesResponse {
    return this.#handle(req, false)
  }

  /** `admitted`: the request passed admission earlier and its handler held the session lock. */
  #handle(req: ResourcesRequest, admitted: boolean): ResourcesResponse {
    const kind = this.env.routeKind(req.path, req.method)
    if (kind === 'untracked') {
      const r = this.env.handle(
        req.path,
        req.body,
        req.sessionId === undefined ? undefined : this.#sessions.state(req.sessionId),
      )
      return {
        status: r.response.status,
        body: r.response.body,
        revision: null,
        revisionBefore: null,
        sessionId: req.sessionId ?? null,
        code: null,
        replayed: false,
        closed: false,
      }
    }
    if (req.identity !== undefined && this.#tombstones.has(executionKey(req.identity)))
      return this.#refuse('stale_attempt', `attempt ${executionKey(req.identity)} is fenced`)
    if (!this.#accepting && !admitted)
      return this.#refuse(
        'checkpoint_parked',
        'resources mutation admission is paused for a checkpoint',
      )
    if (req.identity === undefined) {
      // Stateful traffic without identity is allowed while accepting but poisons prepare.
      this.#servedUntracked = true
      const sid = req.sessionId ?? `s${this.#nextSession++}`
      const r = this.env.handle(req.path, req.body, this.#sessions.state(sid))
      this.#sessions.setState(sid, r.session)
      return {
        status: r.response.status,
        body: r.response.body,
        revision: null,
        revisionBefore: null,
        sessionId: sid,
        code: null,
        replayed: false,
        closed: r.closed === true,
      }
    }
    const key = executionKey(req.identity)
    // Its receipts were evicted (or the history saturated): a retry could not be told from a new
    // request.
    if (this.#sessions.isEvicted(key))
      return this.#refuse(
        'resource_receipt_evicted',
        `receipt history of ${key} was evicted; a replay cannot be answered`,
      )
    this.#servedStateful = true
    if (kind === 'start') {
      const existing = this.#sessions.bound(key)
      const sid = existing?.sessionId ?? req.sessionId ?? `s${this.#nextSession++}`
      const r = this.env.handle(req.path, req.body, this.#sessions.state(sid))
      if (r.response.status >= 300 || r.session === undefined)
        return this.#plain(r.response, existing ?? null, sid)
      // Bind only after a successful start.
      const meta: SessionMeta = existing ?? {
        id: req.identity,
        sessionId: sid,
        revision: 0,
        receipts: new Map(),
        uncertain: false,
        restored: false,
        lockedUntil: null,
      }
      this.#sessions.bind(key, meta, r.session)
      return {
        status: r.response.status,
        body: r.response.body,
        revision: meta.revision,
        revisionBefore: meta.revision,
        sessionId: sid,
        code: null,
        replayed: false,
        closed: false,
        session: r.session,
      }
    }
    const meta = this.#sessions.bound(key)
    if (meta === undefined) {
      const done = this.#sessions.terminal(key)
      if (done !== undefined && req.requestId !== undefined) {
        const replay = this.#replay(done, req)
        if (replay !== null) return replay
      }
      return this.#refuse('resources_session_unbound', `no session is bound to ${key}`)
    }
    if (meta.uncertain)
      return this.#refuse(
        'resource_mutation_uncertain',
        `session ${key} has an uncertain mutation; retire it`,
        meta,
      )
    if (req.requestId !== undefined) {
      const replay = this.#replay(meta, req)
      if (replay !== null) return replay
    }
    if (req.requestId !== undefined && meta.receipts.size >= RECEIPT_CAPACITY)
      return this.#refuse(
        'resource_receipt_capacity_exhausted',
        `session ${key} holds ${RECEIPT_CAPACITY} receipts`,
        meta,
      )
    if (req.expectedRevision !== undefined && req.expectedRevision !== meta.revision)
      return this.#refuse(
        'resource_revision_mismatch',
        `expected revision ${req.expectedRevision}, actual ${meta.revision}`,
        meta,
      )
    const before = meta.revision
    let r
    try {
      r = this.env.handle(req.path, req.body, this.#sessions.state(meta.sessionId))
    } catch (e) {
      // A raising handler leaves the session in an unknown state.
      meta.uncertain = true
      return this.#refuse(
        'resource_mutation_uncertain',
        `handler failed: ${e instanceof Error ? e.message : String(e)}`,
        meta,
      )
    }
    const success = r.response.status < 400
    if (success) meta.revision = before + 1
    const closed = r.closed === true || (kind === 'terminal' && success)
    if (r.session !== undefined) this.#sessions.setState(meta.sessionId, r.session)
    // Built in place, no spread copies: this runs once per environment step, and on this V8 a
    // spread followed by more properties costs microseconds per object. Same keys, same order.
    const response: Mutable<ResourcesResponse> = {
      status: r.response.status,
      body: r.response.body,
      revision: meta.revision,
      revisionBefore: before,
      sessionId: meta.sessionId,
      code: null,
      replayed: false,
      closed,
      session: r.session,
    }
    if (req.requestId !== undefined && success) {
      // The bytes sent now are the bytes recorded: a replay sends exactly these.
      const bytes =
        req.encodeAnswer?.(r.response.status, r.response.body) ??
        encodeUtf8(JSON.stringify(r.response.body))
      response.bytes = bytes
      const request_id = req.requestId
      const input_digest = this.#inputDigest(req)
      const status = r.response.status
      const headers: [string, string][] = [['content-type', 'application/json']]
      const body_base64 = base64Encode(bytes)
      const resulting_revision = meta.revision
      meta.receipts.set(
        request_id,
        req.expectedRevision === undefined
          ? { request_id, input_digest, status, headers, body_base64, resulting_revision }
          : {
              request_id,
              expected_revision: req.expectedRevision,
              input_digest,
              status,
              headers,
              body_base64,
              resulting_revision,
            },
      )
    }
    if (closed) {
      // Terminal: unbound and dropped; receipts stay answerable.
      this.#sessions.close(key)
    }
    return response
  }

  /** A stored receipt is replayed byte for byte; a reused id with other input is refused. */
  #replay(meta: SessionMeta, req: ResourcesRequest): ResourcesResponse | null {
    const receipt = meta.receipts.get(req.requestId as string)
    if (receipt === undefined) return null
    if (
      receipt.input_digest !== this.#inputDigest(req) ||
      receipt.expected_revision !== req.expectedRevision
    )
      return this.#refuse(
        'resource_request_receipt_error',
        `request id ${String(req.requestId)} was used with a different input`,
        meta,
      )
    const bytes = base64Decode(receipt.body_base64) ?? new Uint8Array()
    const text = decodeUtf8(bytes)
    let body: JsonValue = null
    try {
      body = text === undefined ? null : (JSON.parse(text) as JsonValue)
    } catch {
      body = null
    }
    return {
      status: receipt.status,
      body,
      bytes,
      revision: receipt.resulting_revision ?? null,
      revisionBefore: receipt.resulting_revision ?? null,
      sessionId: meta.sessionId,
      code: null,
      replayed: true,
      closed: false,
    }
  }

  #plain(response: EnvResponse, meta: SessionMeta | null, sid: string): ResourcesResponse {
    return {
      status: response.status,
      body: response.body,
      revision: meta?.revision ?? null,
      revisionBefore: meta?.revision ?? null,
      sessionId: sid,
      code: null,
      replayed: false,
      closed: false,
    }
  }

  /**
   * Discovery (`GET /ng-control/v1/capabilities`, docs/protocol.md §3.1), merged with the fence
   * snapshot; `deadline_ts` in Unix-epoch seconds as on the wire.
   */
  capabilities(): JsonValue {
    const f = this.fence.snapshot()
    return {
      component: 'resources_servers',
      name: this.serverName,
      schema_version: 1,
      admission_states: ['accepting', 'paused'],
      checkpoint_mode: this.env.codec.enabled ? 'export_restore' : 'stateless',
      concurrency_contract: 'serialized_per_session',
      multi_process: { mode: 'single_worker', num_workers: 1 },
      features: ['resources-checkpoint'],
      phase: f.phase,
      active_checkpoint_id: f.active_checkpoint_id,
      deadline_ts: f.deadline_ms === null ? null : f.deadline_ms / 1000,
    }
  }

  /**
   * `resources-checkpoint/status` (any phase but idle; stale/conflict still checked), answered from
   * the participant's own state.
   */
  status(checkpointId: string): Result<JsonValue, CutoverError> {
    const check = this.fence.requirePhase(checkpointId, [
      'preparing',
      'prepared',
      'committing',
      'committed_paused',
      'restoring',
      'restore_failed_paused',
      'restored_paused',
    ])
    if (!check.ok) return check
    const metas = [...this.#sessions.boundSessions()].sort((a, b) =>
      executionKey(a.id) < executionKey(b.id) ? -1 : 1,
    )
    return ok({
      state: this.#accepting ? 'accepting' : 'paused',
      admission_state: this.#accepting ? 'accepting' : 'paused',
      sessions: metas.length,
      per_session: metas.map((m) => ({
        rollout_id: m.id.rollout_id,
        attempt_index: m.id.attempt_index,
        revision: m.revision,
        locked: m.lockedUntil !== null,
      })),
      lock_entries: metas.length,
      locked_sessions: metas.filter((m) => m.lockedUntil !== null).length,
      tombstones: [...this.tombstones()],
      evicted_receipt_tombstones: this.#sessions.evictedTombstones,
      receipt_history_saturated: this.#sessions.saturated,
      uncertain_sessions: metas.filter((m) => m.uncertain).map((m) => executionKey(m.id)),
      mutation_receipts: metas.reduce((n, m) => n + m.receipts.size, 0),
      retired_receipt_sessions: this.#sessions.retiredReceiptSessions,
      phase: this.fence.phase,
      prepared_inventory: this.#prepared.map((p) => ({
        rollout_id: p.rollout_id,
        attempt_index: p.attempt_index,
        revision: p.state_revision,
        mutation_receipts: p.mutation_receipts.length,
      })),
    })
  }

  /**
   * A mutation handler of this session is still running and holds its lock until virtual time
   * `until`. Requests run atomically in the simulator, so this is how a slow handler (a long tool
   * call) is modelled; prepare and retire must take the lock within their deadline.
   */
  holdLock(id: ExecutionIdentity, until: number, request?: ResourcesRequest): boolean {
    const meta = this.#sessions.bound(executionKey(id))
    if (meta === undefined) return false
    meta.lockedUntil = until
    // An admitted request whose handler holds the lock: its effect lands when the lock is handed
    // over.
    meta.holder = request === undefined ? null : () => void this.#handle(request, true)
    return true
  }

  /** The handler holding the session's lock finished. */
  releaseLock(id: ExecutionIdentity): boolean {
    const meta = this.#sessions.bound(executionKey(id))
    if (meta === undefined || meta.lockedUntil === null) return false
    this.#handOver(meta)
    return true
  }

  /**
   * The lock holder finishes: its request takes effect (it may close the session), then the lock is
   * free.
   */
  #handOver(meta: SessionMeta): void {
    const holder = meta.holder
    meta.lockedUntil = null
    meta.holder = null
    holder?.()
  }

  /**
   * Takes a session's lock within the deadline (docs/protocol.md §3.4 prepare/retire): a holder
   * that finishes by the deadline hands the lock over (its mutation is part of what follows); one
   * that runs past it is a lock timeout, `resources_checkpoint_error`.
   */
  #acquire(
    meta: SessionMeta,
    deadline: number | null,
    operation: string,
  ): Result<void, CutoverError> {
    if (meta.lockedUntil === null) return ok(undefined)
    if (deadline !== null && meta.lockedUntil > deadline)
      return err(
        cutoverError(
          'resources_checkpoint_error',
          `${operation}: lock of ${executionKey(meta.id)} is held until ${meta.lockedUntil}, past the deadline ${deadline}`,
        ),
      )
    this.#handOver(meta)
    return ok(undefined)
  }

  /**
   * Marks a session uncertain (a handler that failed mid-response, injected by tests and faults).
   */
  markUncertain(id: ExecutionIdentity): boolean {
    const meta = this.#sessions.bound(executionKey(id))
    if (meta === undefined) return false
    meta.uncertain = true
    return true
  }

  /**
   * `prepare` (idle → prepared in one call): close mutation admission; refuse untracked stateful
   * traffic and uncertain sessions; export every bound session in sorted order.
   */
  prepare(
    checkpointId: string,
    deadline: number,
    now: number,
  ): Result<
    {
      sessions: number
      state: 'prepared'
      inventory: readonly { rollout_id: string; attempt_index: number; revision: number }[]
    },
    CutoverError
  > {
    return this.fence.run(
      checkpointId,
      FENCE_OPS.resourcesPrepare,
      () => {
        this.#accepting = false
        if (this.#servedUntracked)
          return this.#reopen(
            err(
              cutoverError(
                'resources_checkpoint_error',
                'stateful traffic without execution identity was served; refusing to omit live state',
              ),
            ),
          )
        if (!this.env.codec.enabled)
          return this.#reopen(
            err(
              cutoverError(
                'resources_checkpoint_error',
                `${this.serverName} has not opted in to checkpoint state`,
              ),
            ),
          )
        const metas = [...this.#sessions.boundSessions()].sort((a, b) =>
          executionKey(a.id) < executionKey(b.id) ? -1 : 1,
        )
        const uncertain = metas.filter((m) => m.uncertain)
        if (uncertain.length > 0)
          return this.#reopen(
            err(
              cutoverError(
                'resource_mutation_uncertain',
                `uncertain sessions must be retired first: ${uncertain.map((m) => executionKey(m.id)).join(', ')}`,
              ),
            ),
          )
        const snapshots: ResourceSnapshot[] = []
        for (const m of metas) {
          const locked = this.#acquire(m, deadline, 'prepare')
          if (!locked.ok) return this.#reopen(locked)
          // A terminal request that held the lock may have retired the session: it leaves the cut.
          if (this.#sessions.bound(executionKey(m.id)) !== m) continue
          const session = this.#sessions.state(m.sessionId)
          if (session === undefined) continue
          const state = this.env.codec.exportState(session)
          if (!state.ok)
            return this.#reopen(
              err(
                cutoverError(
                  'resources_checkpoint_error',
                  `export of ${executionKey(m.id)} failed: ${state.error.message}`,
                ),
              ),
            )
          snapshots.push({
            schema_version: RESOURCE_SNAPSHOT_SCHEMA_VERSION,
            rollout_id: m.id.rollout_id,
            attempt_index: m.id.attempt_index,
            state_revision: m.revision,
            state: state.value,
            mutation_receipts: [...m.receipts.values()],
            created_at: now,
          })
        }
        this.#prepared = snapshots
        return ok({
          sessions: snapshots.length,
          state: 'prepared' as const,
          inventory: snapshots.map((s) => ({
            rollout_id: s.rollout_id,
            attempt_index: s.attempt_index,
            revision: s.state_revision,
          })),
        })
      },
      deadline,
    )
  }

  #reopen<T>(r: Result<T, CutoverError>): Result<T, CutoverError> {
    this.#accepting = true
    return r
  }

  /**
   * `retire` (preparing/prepared): tombstone first, then take the session lock within the deadline
   * (the operation's, else the checkpoint's; a timeout is `resources_checkpoint_error` and leaves
   * the session in place), then drop the session, its revision and its snapshot.
   */
  retire(
    checkpointId: string,
    id: ExecutionIdentity,
    deadline?: number,
  ): Result<{ retired: true; dropped_snapshot: boolean }, CutoverError> {
    const check = this.fence.requirePhase(checkpointId, ['preparing', 'prepared'])
    if (!check.ok) return check
    const key = executionKey(id)
    this.#tombstones.add(key)
    const meta = this.#sessions.bound(key)
    if (meta !== undefined) {
      const locked = this.#acquire(meta, deadline ?? this.fence.snapshot().deadline_ms, 'retire')
      if (!locked.ok) return locked
      // The adapter's retire hook runs under the lock, before the session is dropped (§7.1).
      const session = this.#sessions.state(meta.sessionId)
      if (session !== undefined && this.env.codec.retireState !== undefined) {
        const released = this.env.codec.retireState(session)
        if (!released.ok)
          return err(
            cutoverError(
              'resources_checkpoint_error',
              `retire of ${key}: adapter refused: ${released.error.message}`,
            ),
          )
      }
      this.#sessions.release(key)
    }
    const before = this.#prepared.length
    this.#prepared = this.#prepared.filter(
      (s) => !(s.rollout_id === id.rollout_id && s.attempt_index === id.attempt_index),
    )
    return ok({ retired: true, dropped_snapshot: this.#prepared.length !== before })
  }

  /**
   * `commit`: the prepared snapshots go to `D/resources/<server>` through the directory layer,
   * manifest last.
   */
  commit(
    checkpointId: string,
    dir: CheckpointDirectory,
  ): Result<ResourcesCommitResult, CutoverError> {
    return runSteps(this.commitSteps(checkpointId, dir))
  }

  /**
   * `commit` writing one bounded batch of snapshot files per step (the caller performs each batch's
   * writes in between).
   */
  *commitSteps(
    checkpointId: string,
    dir: CheckpointDirectory,
  ): Generator<void, Result<ResourcesCommitResult, CutoverError>, void> {
    const durable = (): boolean => {
      const loaded = loadResourcesNamespace(dir, this.#digest, this.serverName)
      return loaded.ok && loaded.value.manifest.checkpoint_id === checkpointId
    }
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this
    return yield* fencedCommitSteps(
      this.fence,
      checkpointId,
      dir,
      'resources_checkpoint_error',
      durable,
      function* () {
        const committed = yield* commitResourcesSteps(dir, self.#digest, {
          server_name: self.serverName,
          checkpoint_id: checkpointId,
          snapshots: self.#prepared,
        })
        if (committed.ok) self.#lastCommitDigest = committed.value.manifest_digest
        return committed
      },
    )
  }

  /**
   * `restore` into a fresh process: the directory layer loads the replacement set (namespace
   * verified, reconciled with `D/agent`'s boundaries when present: `resource_revision_mismatch`);
   * the whole set is decoded, then activated under N+1 at once (session ids
   * `checkpoint:<rollout_id>:a<N+1>`) and N is tombstoned. Anything wrong activates nothing.
   */
  restore(
    checkpointId: string,
    dir: CheckpointDirectory,
  ): Result<
    { sessions: number; source_checkpoint_id: string; activated: readonly string[] },
    CutoverError
  > {
    return runSteps(this.restoreSteps(checkpointId, dir))
  }

  /**
   * `restore` with the replacement set read and verified one bounded batch of files at a time first
   * (reads only: the fence still decides, and a refused call changes nothing), then activated at
   * once.
   */
  *restoreSteps(
    checkpointId: string,
    dir: CheckpointDirectory,
  ): VerifySteps<
    Result<
      { sessions: number; source_checkpoint_id: string; activated: readonly string[] },
      CutoverError
    >
  > {
    // A finished id, or the same restore asked of another directory, is refused before D is read.
    const restore = forRequest(FENCE_OPS.restore, dir.location)
    const admitted = this.fence.admits(checkpointId, restore.operation, restore.request)
    if (!admitted.ok) return admitted
    const set = yield* loadReplacementSteps(dir, this.#digest, this.serverName)
    return this.fence.run(checkpointId, restore, () => {
      if (this.#servedStateful || this.#servedUntracked || this.#sessions.boundCount > 0)
        return err(
          cutoverError('unsafe_resources_restore', 'this process has served stateful traffic'),
        )
      if (!set.ok) return set
      if (set.value.source_checkpoint_id !== checkpointId)
        return err(
          cutoverError(
            'resources_checkpoint_error',
            `resources/${this.serverName} holds checkpoint ${set.value.source_checkpoint_id}, not ${checkpointId}`,
          ),
        )
      const snapshots = set.value.snapshots
      const decoded = restoreCheckpointStates(this.env.codec, snapshots)
      if (!decoded.ok) return decoded
      // Everything verified: swap the whole replacement set in at once.
      const activated: string[] = []
      for (const [i, restored] of decoded.value.entries()) {
        const snap = snapshots[i] as ResourceSnapshot
        const next: ExecutionIdentity = {
          rollout_id: restored.rollout_id,
          attempt_index: restored.attempt_index + 1,
        }
        const sid = `checkpoint:${next.rollout_id}:a${next.attempt_index}`
        const meta: SessionMeta = {
          id: next,
          sessionId: sid,
          revision: restored.state_revision,
          receipts: new Map(snap.mutation_receipts.map((r) => [r.request_id, r])),
          uncertain: false,
          restored: true,
          lockedUntil: null,
        }
        this.#sessions.bind(executionKey(next), meta, restored.session)
        this.#tombstones.add(snap)
        activated.push(executionKey(next))
      }
      this.#accepting = false
      return ok({ sessions: activated.length, source_checkpoint_id: checkpointId, activated })
    })
  }

  /**
   * `resume`: reopen mutation admission; refused while a restore-expected process has not restored.
   */
  resume(checkpointId: string): Result<{ state: 'accepting' }, CutoverError> {
    if (this.#restoreExpected && this.fence.phase !== 'restored_paused')
      return err(cutoverError('invalid_phase', 'this process expects a restore before it resumes'))
    return this.fence.run(checkpointId, FENCE_OPS.resourcesResume, () => {
      this.#accepting = true
      this.#restoreExpected = false
      for (const m of this.#sessions.boundSessions()) m.restored = false
      return ok({ state: 'accepting' as const })
    })
  }
}

/** `T` with its fields writable (a response is completed in place before it is returned). */
type Mutable<T> = { -readonly [K in keyof T]: T[K] }

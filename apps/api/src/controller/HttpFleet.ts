import type {
  AdmissionState,
  CheckpointDirectory,
  ContinuationRoot,
  Digest,
  EnvName,
  ExecutionIdentity,
  Fleet,
  JsonValue,
  Result,
} from '@cutover/core'
import { ENV_NAMES, err, loadLedgerNamespace, ok } from '@cutover/core'
import type { CutoverError } from '@cutover/core/contracts'
import { cutoverError } from '@cutover/core/contracts'
import type { z } from 'zod'
import { ANSWERS, checkAnswer } from './answerSchemas.ts'
import type { ControlCallRecord, ParticipantEndpoint } from './controlCall.ts'
import { callSite, controlCall } from './controlCall.ts'

/** Where a fleet's participants listen, and the names their capabilities gave (`discoverFleet`). */
export interface FleetEndpoints {
  /**
   * `workers`: the model's worker processes behind its coordinator (capabilities
   * `multi_process.num_workers`).
   */
  readonly model: { readonly url: string; readonly name: string; readonly workers?: number }
  readonly agent: { readonly url: string; readonly name: string }
  readonly resources: { readonly [K in EnvName]: { readonly url: string; readonly name: string } }
}

/**
 * The token-store snapshot of the last model commit (the controller seals it after the aggregate).
 */
interface TokenCache {
  keys: readonly string[]
  snapshot: JsonValue
}

/**
 * The controller's `Fleet` over HTTP (docs/protocol.md §3.5): each control operation is one
 * `/ng-control/v1/…` request answered with a promise of the participant's `Result`, so the same
 * `Controller` that drives the simulator's in-process participants drives real processes.
 * Directory arguments become `checkpoint_dir` (the checkpoint's absolute path, `checkpointDir`,
 * under the participants' checkpoint roots); deadlines go out as `deadline_ts` seconds.
 * `admission` is the model's state from its last pause/status answer (`refreshAdmission`
 * long-polls it).
 */
export class HttpFleet implements Fleet {
  readonly generation: number
  readonly agent: Fleet['agent']
  readonly model: Fleet['model']
  readonly resources: Fleet['resources']
  readonly endpoints: FleetEndpoints
  readonly #token: string
  readonly #record: (r: ControlCallRecord) => void
  #admission: AdmissionState = 'accepting'
  #deadlineTs = 0
  #activeCheckpoint = ''
  readonly #tokens: TokenCache = { keys: [], snapshot: {} }

  constructor(
    endpoints: FleetEndpoints,
    options: {
      token: string
      generation: number
      checkpointDir: (cid: string) => string
      digest: Digest
      record: (r: ControlCallRecord) => void
    },
  ) {
    this.generation = options.generation
    this.endpoints = endpoints
    this.#token = options.token
    this.#record = options.record
    const dirOf = options.checkpointDir
    const base = (cid: string) => ({
      schema_version: 1,
      checkpoint_id: cid,
      deadline_ts: this.#deadlineTs,
    })
    const agentAt: ParticipantEndpoint = { participant: 'agent', url: endpoints.agent.url }
    const modelAt: ParticipantEndpoint = { participant: 'policy_model', url: endpoints.model.url }
    // Every answer is held to the schema of what the controller reads of it (`ANSWERS`).
    const post = async <S extends z.ZodType>(
      at: ParticipantEndpoint,
      endpoint: string,
      body: unknown,
      schema: S,
    ): Promise<Result<z.infer<S>, CutoverError>> =>
      checkAnswer(
        await controlCall(at, this.#token, 'POST', endpoint, body, this.#record),
        schema,
        callSite(at, 'POST', endpoint),
      )
    const get = async <S extends z.ZodType>(
      at: ParticipantEndpoint,
      endpoint: string,
      schema: S,
    ): Promise<Result<z.infer<S>, CutoverError>> =>
      checkAnswer(
        await controlCall(at, this.#token, 'GET', endpoint, undefined, this.#record),
        schema,
        callSite(at, 'GET', endpoint.replace(/\?.*$/, '')),
      )
    const withDeadline = (deadline: number) => {
      this.#deadlineTs = deadline / 1000
    }
    const q = (cid: string) => `checkpoint_id=${encodeURIComponent(cid)}`
    const identity = (id: ExecutionIdentity) => ({
      rollout_id: id.rollout_id,
      attempt_index: id.attempt_index,
    })

    this.agent = {
      instanceName: endpoints.agent.name,
      // At once (`wait_ready=0`): the controller polls status and, at the deadline, retires the
      // stragglers, where a prepare waiting for readiness would fail the checkpoint.
      prepare: (cid, deadline) => {
        withDeadline(deadline)
        return post(
          agentAt,
          'agent-checkpoint/prepare?wait_ready=0',
          base(cid),
          ANSWERS.agentStatus,
        )
      },
      status: (cid) => get(agentAt, `agent-checkpoint/status?${q(cid)}`, ANSWERS.agentStatus),
      // Past the deadline the status route itself answers agent_prepare_incomplete (the
      // participant's prepareDeadline).
      prepareDeadline: (cid) =>
        get(agentAt, `agent-checkpoint/status?${q(cid)}&at_deadline=1`, ANSWERS.agentStatus),
      retire: (cid, id) =>
        post(agentAt, 'agent-checkpoint/retire', { ...base(cid), ...identity(id) }, ANSWERS.any),
      commit: (cid) =>
        post(
          agentAt,
          'agent-checkpoint/commit',
          { ...base(cid), checkpoint_dir: dirOf(cid) },
          ANSWERS.agentCommit,
        ),
      restore: (cid) =>
        post(
          agentAt,
          'agent-checkpoint/restore',
          { ...base(cid), checkpoint_dir: dirOf(cid) },
          ANSWERS.agentRestore,
        ),
      resume: (cid) => post(agentAt, 'agent-checkpoint/resume', base(cid), ANSWERS.resumed),
    } as Fleet['agent']

    const track = async <T extends { state?: unknown }>(
      reply: Promise<Result<T, CutoverError>>,
    ): Promise<Result<T, CutoverError>> => {
      const r = await reply
      if (r.ok && typeof r.value.state === 'string')
        this.#admission = r.value.state as AdmissionState
      return r
    }
    const admission = (): AdmissionState => this.#admission
    this.model = {
      serverName: endpoints.model.name,
      get admission(): AdmissionState {
        return admission()
      },
      workerCount: endpoints.model.workers ?? 1,
      // Workers acknowledge the close over the coordinator's socket by themselves: the controller
      // reads the outcome from the status answer (a worker that did not acknowledge within a second
      // of the long-poll is missing_workers, never an implicit zero).
      workerAck: (k: number) =>
        (async (): Promise<Result<void, CutoverError>> => {
          const cid = this.#activeCheckpoint
          const r = await get(
            modelAt,
            `model-admission/status?${q(cid)}&wait_state=paused&timeout_s=1`,
            ANSWERS.modelWorkers,
          )
          if (!r.ok) return r
          this.#admission = r.value.state
          return r.value.per_worker?.[String(k)]?.acknowledged === true
            ? ok(undefined)
            : err(
                cutoverError(
                  'missing_workers',
                  `policy_model (${endpoints.model.url}) worker ${k} did not acknowledge the close of ${cid}`,
                ),
              )
        })(),
      pause: (cid: string, deadline: number) => {
        withDeadline(deadline)
        this.#activeCheckpoint = cid
        return track(post(modelAt, 'model-admission/pause', base(cid), ANSWERS.modelAdmission))
      },
      status: (cid: string) =>
        track(get(modelAt, `model-admission/status?${q(cid)}`, ANSWERS.modelStatus)),
      abortInflight: (cid: string, id: ExecutionIdentity) =>
        post(
          modelAt,
          'model-admission/abort_inflight',
          { ...base(cid), ...identity(id) },
          ANSWERS.any,
        ),
      commit: async (cid: string, dir: CheckpointDirectory, roots: readonly ContinuationRoot[]) => {
        const r = await post(
          modelAt,
          'model-checkpoint/commit',
          { ...base(cid), checkpoint_dir: dirOf(cid), continuation_roots: roots },
          ANSWERS.modelCommit,
        )
        if (!r.ok) return r
        // The committed ledger names the staging keys; the model process holds their tokens.
        const named = new Set(roots.map((x) => x.capture_key))
        const ledger = loadLedgerNamespace(dir, options.digest, endpoints.model.name)
        const keys = ledger.ok
          ? Object.entries(ledger.value.rollouts)
              .filter(([ck]) => named.has(ck))
              .flatMap(([, rows]) => rows.map((row) => row.staging_key))
              .sort()
          : []
        const snap = await post(
          modelAt,
          'model-checkpoint/token-snapshot',
          { ...base(cid), staging_keys: keys },
          ANSWERS.tokenSnapshot,
        )
        if (!snap.ok) return snap
        this.#tokens.keys = keys
        this.#tokens.snapshot = snap.value.snapshot as JsonValue
        return r
      },
      restore: (cid: string) =>
        track(
          post(
            modelAt,
            'model-checkpoint/restore',
            { ...base(cid), checkpoint_dir: dirOf(cid) },
            ANSWERS.modelRestore,
          ),
        ),
      resume: (cid: string) =>
        track(post(modelAt, 'model-admission/resume', base(cid), ANSWERS.modelAdmission)),
    } as unknown as Fleet['model']

    const resources = {} as { [K in EnvName]: Fleet['resources'][K] }
    for (const env of ENV_NAMES) {
      const at: ParticipantEndpoint = {
        participant: `resources_${env}`,
        url: endpoints.resources[env].url,
      }
      resources[env] = {
        serverName: endpoints.resources[env].name,
        prepare: (cid, deadline) => {
          withDeadline(deadline)
          return post(at, 'resources-checkpoint/prepare', base(cid), ANSWERS.resourcesPrepare)
        },
        retire: (cid, id) =>
          post(at, 'resources-checkpoint/retire', { ...base(cid), ...identity(id) }, ANSWERS.any),
        commit: (cid) =>
          post(
            at,
            'resources-checkpoint/commit',
            { ...base(cid), checkpoint_dir: dirOf(cid) },
            ANSWERS.resourcesCommit,
          ),
        restore: (cid) =>
          post(
            at,
            'resources-checkpoint/restore',
            { ...base(cid), checkpoint_dir: dirOf(cid) },
            ANSWERS.resourcesRestore,
          ),
        resume: (cid) => post(at, 'resources-checkpoint/resume', base(cid), ANSWERS.resumed),
      } as Fleet['resources'][EnvName]
    }
    this.resources = resources
  }

  /** Long-polls the model's status (up to `timeoutS`) so `admission` is current. */
  async refreshAdmission(cid: string, timeoutS: number): Promise<void> {
    const at: ParticipantEndpoint = { participant: 'policy_model', url: this.endpoints.model.url }
    const endpoint = `model-admission/status?checkpoint_id=${encodeURIComponent(cid)}&wait_state=paused&timeout_s=${timeoutS}`
    const r = checkAnswer(
      await controlCall(at, this.#token, 'GET', endpoint, undefined, this.#record),
      ANSWERS.modelAdmission,
      callSite(at, 'GET', 'model-admission/status'),
    )
    if (r.ok) this.#admission = r.value.state
  }

  /** The staging keys and token snapshot of the last model commit. */
  tokenStore(): { readonly keys: readonly string[]; readonly snapshot: JsonValue } {
    return this.#tokens
  }
}

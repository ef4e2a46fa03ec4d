/**
 * The conformance index (issue #12): every rule of docs/protocol.md §3, §4 and §6 and every row
 * of §8 with a stable id, its one-line rule and its source sections. A rule is covered by the tests
 * whose names carry `[<id>]`; `npm run conformance` (scripts/conformance.ts) counts them and fails
 * when a modelled rule has none. Rules Cutover deliberately does not model say why in
 * `notModelled`; they are listed as such, never left out. SPEC_RULES.md is generated from this
 * table.
 */
export interface SpecRule {
  /** Stable id, `<area>.<rule>`; tests name it as `[<id>]`. */
  readonly id: string
  /**
   * docs/protocol.md sections (and §8 rows, as `§8 <row>`) the rule comes from; a rule
   * documented in another doc names that doc, as `docs/real-stack.md …`.
   */
  readonly sources: readonly string[]
  /** The rule in one line. */
  readonly rule: string
  /** Why Cutover does not model the rule (absent: modelled, and a test must name it). */
  readonly notModelled?: string
}

export const SPEC_RULES = [
  // ---- §3.1 shared control plane, §4.1 fence ----
  {
    id: 'control.capabilities',
    sources: ['§3.1'],
    rule: 'GET /ng-control/v1/capabilities is never gated by admission and reports component, name, schema_version 1, modes and the fence snapshot',
  },
  {
    id: 'control.bearer-auth',
    sources: ['§3.1'],
    rule: 'control routes need Authorization: Bearer <token>; otherwise 401 unauthorized, and no token mounts no control route',
  },
  {
    id: 'control.strict-bodies',
    sources: ['§3.1'],
    rule: 'every control body is {schema_version:1, checkpoint_id, deadline_ts, …} with extra fields forbidden',
  },
  {
    id: 'control.error-envelope',
    sources: ['§3.1'],
    rule: 'refusals use the error envelope {error:{code, …}} with status 409 unless noted',
  },
  {
    id: 'fence.replay',
    sources: ['§3.1', '§8 same checkpoint op retried'],
    rule: 'a (checkpoint_id, operation) with a recorded result replays it while the id is not finished',
  },
  {
    id: 'fence.replay-same-request',
    sources: ['§3.1', '§8 same checkpoint op retried', 'docs/real-stack.md replay'],
    rule: 'a recorded result is replayed (an in-flight call coalesced) only for the same request: a retry with a new deadline_ts is a replay, a different checkpoint_dir is checkpoint_conflict and nothing is written',
  },
  {
    id: 'fence.stale-before-replay',
    sources: ['§3.1', '§8 finished checkpoint id', 'docs/real-stack.md replay'],
    rule: 'a finished id is stale_checkpoint for every operation, the ones with a recorded result included, before any directory is opened',
  },
  {
    id: 'fence.coalesce',
    sources: ['§3.1', '§8 same checkpoint op retried'],
    rule: 'an identical call while one is in flight is coalesced onto it',
  },
  {
    id: 'fence.stale-checkpoint',
    sources: ['§3.1', '§8 finished checkpoint id'],
    rule: 'a retired (resumed or aborted) checkpoint id is 409 stale_checkpoint forever',
  },
  {
    id: 'fence.checkpoint-conflict',
    sources: ['§3.1', '§8 id B while A active'],
    rule: 'another id while one is active is 409 checkpoint_conflict',
  },
  {
    id: 'fence.invalid-phase',
    sources: ['§3.1', '§8 operation in wrong phase'],
    rule: 'an operation in a phase it does not allow is 409 invalid_phase',
  },
  {
    id: 'fence.failure-rolls-back',
    sources: ['§3.1', '§4.1'],
    rule: 'a failed operation restores the entry phase and deadline (clearing the active id when entry was idle); a failed commit returns to prepared',
  },
  {
    id: 'fence.mark-prepared',
    sources: ['§3.1', '§4.1'],
    rule: 'preparing → prepared once the participant reports readiness (resources prepare goes idle → prepared in one call)',
  },
  {
    id: 'fence.restore-failed-paused',
    sources: ['§3.1', '§4.1', '§8 restore failure (model)'],
    rule: 'a failed model restore moves to restore_failed_paused; a retry may restore again',
  },
  {
    id: 'fence.resume-retires-id',
    sources: ['§3.1', '§4.1'],
    rule: 'resume (and abort) is allowed from every paused phase, returns to idle and retires the id',
  },
  {
    id: 'fence.zero-budget',
    sources: ['§3.1', '§8 deadline already passed'],
    rule: 'deadlines are absolute; at a Gym participant an expired deadline is a zero budget, never negative, never an error',
  },
  {
    id: 'fence.stale-attempt-everywhere',
    sources: ['§2.4', '§8 call from aborted/retired attempt after restore'],
    rule: 'a call from an aborted or retired attempt after restore is 409 stale_attempt at the model, the agent and the resources server',
  },
  // ---- §3.2 policy model, §4.2 admission ----
  {
    id: 'model.not-a-policy-instance',
    sources: ['§3.2'],
    rule: 'an auxiliary model instance refuses checkpoint operations with not_a_policy_instance',
  },
  {
    id: 'model.pause-closes-admission',
    sources: ['§3.2', '§4.2'],
    rule: 'pause closes admission: paused at once with nothing in flight, else draining until the last accepted call finishes',
  },
  {
    id: 'model.admission-gate',
    sources: ['§3.2', '§4.2', '§8 new policy generation during drain/paused'],
    rule: 'a new generation while draining or paused is 409 checkpoint_parked, refused before any state changes',
  },
  {
    id: 'model.parked-retry-after',
    sources: ['§3.1', '§8 new policy generation during drain/paused'],
    rule: 'an admission refusal (checkpoint_parked) over HTTP carries retry-after: 1',
  },
  {
    id: 'model.status-long-poll',
    sources: ['§3.2', '§3.5', '§8 active generation at prepare'],
    rule: 'status long-polls up to min(timeout_s, remaining) for paused and marks prepared once paused',
  },
  {
    id: 'model.abort-inflight',
    sources: ['§3.2', '§6.1', '§8 abort_inflight then commit'],
    rule: 'abort_inflight tombstones the attempt at once; commit stays ledger_not_quiescent until the cancelled task exits',
  },
  {
    id: 'model.commit-quiescent',
    sources: ['§3.2'],
    rule: 'commit needs admission paused and zero in flight, else ledger_not_quiescent',
  },
  {
    id: 'model.ledger-not-checkpointable',
    sources: ['§3.2'],
    rule: 'a model server without a ledger lifecycle refuses commit with ledger_not_checkpointable',
  },
  {
    id: 'model.commit-roots-only',
    sources: ['§3.2', '§5.1'],
    rule: 'commit copies lineage only for capture keys named by agent continuation roots; the rest is excluded_inactive',
  },
  {
    id: 'model.commit-root-mismatch',
    sources: ['§5.1'],
    rule: 'a root naming a tombstoned attempt, a missing lineage or no single matching row is ledger_mismatch',
  },
  {
    id: 'model.restore-boots-paused',
    sources: ['§3.2', '§3.7', '§4.2'],
    rule: 'restore closes the limiter first, fences tombstones and every source attempt, and stays paused until resume',
  },
  {
    id: 'model.refused-restore-keeps-admission',
    sources: ['§3.1', '§4.2'],
    rule: 'a restore the fence refuses (stale or conflicting id) changes nothing: admission only closes once the fence accepted the restore',
  },
  {
    id: 'model.restore-fences-continued',
    sources: ['§2.3', '§2.4', '§8 call from aborted/retired attempt after restore'],
    rule: 'restore fences attempt N of every execution the checkpoint continues under N+1 — also one whose boundary names no model call (no continuation root, so not among source_attempts): its delayed request is 409 stale_attempt',
  },
  {
    id: 'model.resume-reopens',
    sources: ['§3.2', '§4.2'],
    rule: 'resume reopens admission (paused → accepting) and retires the id',
  },
  {
    id: 'model.custody-before-response',
    sources: ['§3.2'],
    rule: 'custody (the lineage row) is recorded before the response completes; a cancelled request records nothing',
  },
  {
    id: 'model.generation-safe-cuts',
    sources: ['§3.2', '§8 active generation (generation-safe mode)', '§8 completed before egress'],
    rule: 'generation-safe cuts (docs/protocol.md §11, cut_mode generation-safe): every frozen ticket reaches one durable disposition (durable prefix staged before its ack, durable failure, completed, excluded, not started), egress fenced until the disposition is known, prefixes validated before commit and verified before restore',
  },
  {
    id: 'model.egress-release-on-abort',
    sources: ['§3.2', '§8 completed before egress'],
    rule: 'a checkpoint aborted after its generation cut lifts the egress fence and loses nothing: a response held behind the fence (completed_durable) is delivered exactly once, and a frozen call still generating goes on from where it is instead of being issued again (docs/protocol.md §11.3 step 4)',
  },
  // ---- §3.3 agent, §4.3 agent execution ----
  {
    id: 'agent.begin-rules',
    sources: ['§3.3', '§8 duplicate /run for a live attempt'],
    rule: 'begin: fenced or acknowledged keys are stale_attempt; a live execution is duplicate_execution, a completed one replays its result; closed admission is agent_admission_closed',
  },
  {
    id: 'agent.boundary-index',
    sources: ['§3.3'],
    rule: 'boundary indices strictly increase; an identical re-commit is a no-op, a different lower one an error',
  },
  {
    id: 'agent.ownership',
    sources: ['§2.4', '§3.3'],
    rule: 'a stale execution generation cannot write a boundary (ownership check, stale_attempt)',
  },
  {
    id: 'agent.prepare-parks',
    sources: ['§3.3', '§4.3'],
    rule: 'prepare closes admission, parks executions on a boundary and asks the others to park at their next boundary',
  },
  {
    id: 'agent.boundaryless-park-blocks',
    sources: ['§4.3', '§8 boundary-less park'],
    rule: 'a boundary-less park blocks ready_to_commit (it cannot be exported)',
  },
  {
    id: 'agent.completed-blocks-ready',
    sources: ['§4.3', '§8 completed results awaiting ack'],
    rule: 'completed results awaiting acknowledgement block ready_to_commit; retire of a completed execution reports completed_unacknowledged',
  },
  {
    id: 'agent.prepare-incomplete',
    sources: ['§3.3', '§8 agent execution between boundaries at deadline'],
    rule: 'not ready at the deadline: agent_prepare_incomplete listing the blockers; park requests revert',
  },
  {
    id: 'agent.failed-prepare-returns-idle',
    sources: ['§4.1', '§8 agent execution between boundaries at deadline'],
    rule: 'after a failed prepare the fence is idle with no active id: the same id prepares afresh and another id is no conflict',
  },
  {
    id: 'agent.status-every-phase',
    sources: ['§3.3'],
    rule: 'status answers in every phase, idle included; stale and conflicting ids are still checked',
  },
  {
    id: 'agent.retire',
    sources: ['§3.3', '§6.1'],
    rule: 'retire tombstones the attempt and drops its execution; a later begin is stale_attempt',
  },
  {
    id: 'agent.commit-records',
    sources: ['§3.3', '§5.2'],
    rule: 'commit writes one record per parked-with-boundary execution, manifest last, and returns the continuation roots',
  },
  {
    id: 'agent.restore-continuations',
    sources: ['§3.3', '§2.3'],
    rule: 'restore installs each record as the continuation of N+1, fences N, and the continuation is claimed by exactly one /run',
  },
  {
    id: 'agent.resume-releases',
    sources: ['§3.3', '§4.3'],
    rule: 'resume reopens admission and releases parked executions',
  },
  {
    id: 'agent.cancelled-parked-stays-exportable',
    sources: ['§4.3'],
    rule: 'a parked-with-boundary execution whose /run is cancelled stays exportable and is retired at resume; other failures/cancels retire at once',
  },
  {
    id: 'agent.single-acknowledge',
    sources: ['§3.3', '§6.3'],
    rule: 'the single /acknowledge takes one exact receipt → {acknowledged, idempotent}',
  },
  {
    id: 'agent.completion-receipt',
    sources: ['§3.3', '§6.3'],
    rule: 'GET completion-receipt by identity returns the retained receipt of a completed execution',
  },
  {
    id: 'agent.discard-restored-continuation',
    sources: ['§3.3', '§6.4'],
    rule: 'discard-restored-continuation (restored_paused only) drops the continuation so the replacement restarts from its input',
  },
  {
    id: 'controller.discard-non-restorable',
    sources: ['§6.4'],
    rule: 'the controller discards restored continuations that depend on a resources server that is not restorable (restart_only)',
    notModelled:
      'needs a restart_only resources mode and the agent resource dependency index (agent_resource_dependency_index_v1), neither modelled: every Cutover resources server is export_restore; the agent operation itself is modelled (agent.discard-restored-continuation)',
  },
  // ---- §3.4 resources, §4.4 sessions ----
  {
    id: 'resources.bind-after-start',
    sources: ['§4.4'],
    rule: 'a session binds to (rollout_id, attempt_index) only after a successful start, at revision 0',
  },
  {
    id: 'resources.unbound',
    sources: ['§8 mutation before bind'],
    rule: 'a mutation before bind is resources_session_unbound',
  },
  {
    id: 'resources.revision-on-success',
    sources: ['§4.4'],
    rule: 'the revision rises by one only after a successful non-read request',
  },
  {
    id: 'resources.revision-cas',
    sources: ['§8 expected revision mismatch'],
    rule: 'an expected revision that does not match is resource_revision_mismatch (compare-and-set)',
  },
  {
    id: 'resources.receipt-replay-bytes',
    sources: ['§5.3', '§8 resources mutation replay'],
    rule: 'a repeated request id replays the stored response byte for byte without re-executing; the input digest covers method, path, query, content type, sorted cookies and body',
  },
  {
    id: 'resources.receipt-mismatch',
    sources: ['§8 resources mutation replay'],
    rule: 'the same request id with other input or expected revision is resource_request_receipt_error',
  },
  {
    id: 'resources.receipt-capacity',
    sources: ['§8 receipt capacity / evicted history'],
    rule: 'a session holding 1 024 receipts refuses a new request id with resource_receipt_capacity_exhausted',
  },
  {
    id: 'resources.receipt-evicted',
    sources: ['§3.4', '§8 receipt capacity / evicted history'],
    rule: '1 024 closed sessions keep their receipts, then 4 096 eviction tombstones, then saturation; an evicted identity is resource_receipt_evicted',
  },
  {
    id: 'resources.uncertain',
    sources: ['§4.4', '§8 handler raises / incomplete response'],
    rule: 'a handler that raises marks the session uncertain: later requests are resource_mutation_uncertain and prepare refuses until it is retired',
  },
  {
    id: 'resources.untracked-poisons-prepare',
    sources: ['§3.4', '§8 stateful traffic without identity'],
    rule: 'stateful traffic without identity is served while accepting but makes prepare refuse (resources_checkpoint_error)',
  },
  {
    id: 'resources.prepare-exports',
    sources: ['§3.4', '§4.4'],
    rule: 'prepare closes mutation admission and exports every bound session in sorted order with revision and receipts',
  },
  {
    id: 'resources.prepare-lock-deadline',
    sources: ['§3.4'],
    rule: 'prepare takes each session lock within the deadline; a holder running past it is resources_checkpoint_error and nothing is exported',
  },
  {
    id: 'resources.terminal-races-prepare',
    sources: ['§3.4', '§8 terminal request races prepare lock'],
    rule: 'a terminal request holding the lock at prepare retires its session, which silently leaves the cut',
  },
  {
    id: 'resources.retire',
    sources: ['§3.4', '§6.1'],
    rule: 'retire tombstones first, takes the session lock within the deadline, then drops the session, its revision and its snapshot',
  },
  {
    id: 'resources.adapter-retire-hook',
    sources: ['§3.4', '§7.1'],
    rule: 'retire calls the adapter retire hook under the session lock before the session is dropped',
  },
  {
    id: 'resources.terminal-releases',
    sources: ['§4.4'],
    rule: 'a successful terminal request unbinds the session; its receipts stay answerable',
  },
  {
    id: 'resources.commit-manifest-last',
    sources: ['§3.4', '§5.3'],
    rule: 'commit writes one snapshot per session, then the manifest',
  },
  {
    id: 'resources.restore-replacement-set',
    sources: ['§3.4', '§5.4'],
    rule: 'restore activates the complete set under N+1 at once (checkpoint:<rollout>:a<N+1>), fences N, keeps revisions and receipts',
  },
  {
    id: 'resources.revision-reconcile',
    sources: ['§5.4', '§8 agent/resources revision disagreement'],
    rule: 'agent boundaries that disagree on a revision or the session set are resource_revision_mismatch at restore; nothing activates',
  },
  {
    id: 'resources.restore-expected',
    sources: ['§3.4', '§7.1'],
    rule: 'a restore-expected process starts paused and refuses resume until it restored',
  },
  {
    id: 'resources.status-get-by-participant',
    sources: ['§3.4'],
    rule: 'status is a GET answered by the participant itself (locks, receipts, eviction history, prepared inventory)',
  },
  // ---- restore refusals shared by the participants ----
  {
    id: 'restore.fresh-process',
    sources: ['§2.4', '§8 restore into a process that served traffic'],
    rule: 'restore into a process that served traffic is refused: resources unsafe_resources_restore, model ledger_mismatch, agent error',
  },
  {
    id: 'restore.verifies-everything',
    sources: ['§3.5', '§5', '§5.5'],
    rule: 'before any participant restores, the controller runs the one verification `cutover verify` runs (every file the directory layer lists, the token store and its segments included): verify and restore cannot disagree',
  },
  {
    id: 'directory.temp-files-repaired',
    sources: ['§5', '§12.5'],
    rule: 'temp file names are unique across attempts and processes, a failed write or sync removes its own, and a writer removes the ones a killed writer left in a folder before it reads or writes there, so a retried commit repairs the directory',
  },
  {
    id: 'directory.storage-full',
    sources: ['§5'],
    rule: 'a full disk (ENOSPC, EDQUOT) is storage_full on every attempt, whoever writes: participants, the controller and its retries',
  },
  {
    id: 'directory.checkpoint-dir-invalid',
    sources: ['§5'],
    rule: 'a checkpoint directory that is a file, lies under one or is a symlink is checkpoint_dir_invalid, never a thrown error',
  },
  {
    id: 'control.envelope-everywhere',
    sources: ['§3.1', 'docs/http-api.md'],
    rule: 'every error a control route (and the agent’s POST /run) can produce is the envelope with a protocol code: 413 payload_too_large, checkpoint_dir_invalid and storage_full naming paths relative to the data directory',
  },
  {
    id: 'restore.corrupt-refused',
    sources: ['§5', '§8 corrupt / missing / torn snapshot'],
    rule: 'a corrupt, missing or torn namespace is refused naming the file and installs nothing',
  },
  // ---- §3.5–3.7 actor / controller ----
  {
    id: 'controller.discover',
    sources: ['§3.5', '§8 multi-worker service without coordinator'],
    rule: "discovery (the HTTP controller) reads every capabilities route with the token, checks component, schema_version 1 and the policy model's role and admission states, refuses unmanaged multi-process servers, and takes the names found; a participant that is not export_restore is refused, not skipped (Cutover's fleet has one slot per role and cannot checkpoint without it)",
  },
  {
    id: 'controller.prepare-order',
    sources: ['§3.5', '§3.7'],
    rule: 'prepare: freeze dispatch, prepare agents, pause the policy model, wait for paused, then prepare resources',
  },
  {
    id: 'controller.acks-before-prepare',
    sources: ['§3.6', '§8 completed results awaiting ack'],
    rule: 'completed results are acknowledged with their exact receipts before any participant is asked to prepare',
  },
  {
    id: 'controller.prepare-refused-unreleased',
    sources: ['§3.5', '§8 actor sees terminal-but-unreleased results at prepare'],
    rule: 'while completed results remain unreleased the prepare fails (prepare_incomplete) and no participant prepares',
  },
  {
    id: 'controller.prepare-incomplete',
    sources: ['§3.5'],
    rule: 'a policy model that does not reach paused by the deadline fails the prepare with prepare_incomplete',
  },
  {
    id: 'controller.deadline-exceeded',
    sources: ['§3.1', '§8 deadline already passed'],
    rule: 'a deadline already passed at the controller fails fast with deadline_exceeded; nothing is sent',
  },
  {
    id: 'controller.straggler-sacrifice',
    sources: ['§6.1', '§8 active generation at prepare'],
    rule: 'at the deadline stragglers are sacrificed (model abort_inflight, agent retire, resources retire) instead of failing the checkpoint, and redispatched fresh',
  },
  {
    id: 'controller.commit-order',
    sources: ['§3.5', '§3.6', '§10.1'],
    rule: 'commit: agents first (continuation roots), then the model with those roots, then resources',
  },
  {
    id: 'controller.publish-last',
    sources: ['§3.5', '§3.7', '§5.5'],
    rule: 'the aggregate manifest is written after every participant manifest, then the token store, then checkpoint.json last',
  },
  {
    id: 'controller.commit-durable-before-success',
    sources: ['§3.5', '§5'],
    rule: 'commit success is recorded only for durable bytes: a retried commit after any failed write ends with every file present and verified',
  },
  {
    id: 'controller.restore-reads-aggregate',
    sources: ['§3.5', '§5.5'],
    rule: 'restore reads checkpoint.json and verifies the aggregate manifest before any participant restores',
  },
  {
    id: 'controller.restore-fleet-mismatch',
    sources: ['§3.5', '§5.5', '§8 participant set changed between commit and restore'],
    rule: 'restore refuses when the committed participant set (id, name, kind) differs from the current fleet',
  },
  {
    id: 'controller.restore-already-live',
    sources: ['§3.5', '§2.4', '§8 restore into a process that served traffic'],
    rule: 'a fleet is restored only when every participant restored the checkpoint in this attempt: one that already finished it (stale_checkpoint) fails the restore with participant_already_live naming every such participant',
  },
  {
    id: 'controller.resume-order',
    sources: ['§3.5', '§3.7'],
    rule: 'resume: dependencies (policy model, resources) before agents, then dispatch',
  },
  {
    id: 'controller.abort-resumes-lost-response',
    sources: ['§3.5', '§8 lost response to prepare/restore'],
    rule: 'abort sends resume to every participant a prepare or restore was sent to, even when its response was lost',
  },
  {
    id: 'controller.abort-already-accepting',
    sources: ['§3.5', '§8 operation in wrong phase'],
    rule: 'during abort an invalid_phase answer to resume is recorded as already_accepting',
  },
  {
    id: 'controller.release-exact-receipt',
    sources: ['§3.5', '§6.3'],
    rule: 'release acknowledges exactly the receipt of the identity and drops it from the registry',
  },
  {
    id: 'controller.status',
    sources: ['§3.5'],
    rule: 'the actor status operation reports phase, participants, registry and results',
    notModelled:
      "the run's views and participant cards stand in for the actor's status; there is no actor status operation",
  },
  {
    id: 'controller.transport-limits',
    sources: ['§3.5'],
    rule: '1 MiB response limit (response_too_large), a malformed answer is invalid_response, no answer in time deadline_exceeded; errors name participant, endpoint, status and gym_error_code (the HTTP controller)',
  },
  {
    id: 'controller.registry-freeze',
    sources: ['§4.5'],
    rule: 'registry: register refused while frozen, freeze of another or a retired id is an error, unfreeze only by the owning id',
    notModelled:
      'the simulator freezes dispatch as one flag for one transaction at a time; the registry id checks have no second caller to refuse',
  },
  // ---- the API's runs (docs/http-api.md) ----
  {
    id: 'api.view-never-waits',
    sources: ['docs/http-api.md'],
    rule: 'a view of a run that has not started (queued for a simulation slot) answers at once with 409 run_not_started; a running one answers with what exists; no view waits for the slot',
  },
  {
    id: 'api.run-digest',
    sources: ['docs/http-api.md'],
    rule: 'run.json carries the SHA-256 of its content, checked on load: a run whose digest fails (or whose file does not parse) is listed as damaged with its reason and its trace, views and checkpoints are 409 run_damaged',
  },
  // ---- the fault campaign (issue #29; `npm run faults`: real processes) ----
  {
    id: 'faults.commit-kill',
    sources: ['§3.5', '§5'],
    rule: 'a controller SIGKILLed at any write of a commit leaves a directory verify and restore both refuse, and a retried commit with the same id repairs it (valid, no temp file); a participant killed while it writes fails the commit, torn and refused',
  },
  {
    id: 'faults.restore-kill',
    sources: ['§3.5', '§2.4'],
    rule: 'a controller or participant SIGKILLed at any point of a restore activates nothing corrupt: a retried restore restores the whole fleet or fails with participant_already_live naming the live participants',
  },
  {
    id: 'faults.damage',
    sources: ['§5', '§5.5', '§8 corrupt / missing / torn snapshot'],
    rule: 'every kind of damage at rest (a flipped, missing, truncated or extended file of each kind, an unlisted file, a symlink) is refused by verify and by restore alike, and nothing is activated',
  },
  {
    id: 'faults.storage-full',
    sources: ['§5'],
    rule: 'a commit on a full disk is storage_full on every attempt of whichever writer meets it, leaves no temp file, and a commit after room is made verifies',
  },
  // ---- §4.6 coordinator ----
  {
    id: 'coordinator.paused-needs-all-acks',
    sources: ['§4.6'],
    rule: 'paused only when every frozen worker acknowledged and summed in-flight is zero',
  },
  {
    id: 'coordinator.missing-workers',
    sources: ['§4.6', '§8 worker missing / extra at close'],
    rule: 'a missing or unacknowledging worker is missing_workers, never an implicit zero',
  },
  {
    id: 'coordinator.registration-rejected',
    sources: ['§4.6', '§8 worker (re)joins during checkpoint'],
    rule: 'registration while not accepting is worker_registration_rejected',
  },
  {
    id: 'coordinator.cut-leases',
    sources: ['§4.6', '§8 restore race'],
    rule: "restored generation cuts are leased per attempt to one (worker, call): restored_cut_already_owned / restored_cut_consumed; a disconnected worker's leases are released",
  },
  // ---- §6 stragglers, relay, receipts ----
  {
    id: 'straggler.tombstones-restored',
    sources: ['§6.1'],
    rule: 'the model commit records tombstoned attempts so a restored server re-installs the fence before serving',
  },
  {
    id: 'relay.first-call-once',
    sources: ['§6.2'],
    rule: "the first N+1 model call links to N's verified last committed call exactly once; later calls link within N+1",
  },
  {
    id: 'receipt.shape',
    sources: ['§6.3'],
    rule: 'a receipt is {rollout_id, attempt_index, execution_generation, result_identity (result id, else the digest), result_digest}',
  },
  {
    id: 'receipt.batch-all-or-nothing',
    sources: ['§6.3', '§8 receipt replay'],
    rule: 'a batch is validated whole before anything is released; one bad receipt releases nothing',
  },
  {
    id: 'receipt.idempotent-replay',
    sources: ['§6.3', '§8 receipt replay'],
    rule: 'an identical acknowledged receipt is an idempotent success; a mismatching one is completed_execution_acknowledgement_error',
  },
  {
    id: 'receipt.multi-worker',
    sources: ['§6.3'],
    rule: 'multi-worker agents validate each receipt against its owning worker, then release per owner',
    notModelled: 'the agent participant is one process',
  },
  {
    id: 'agent.restore-race',
    sources: ['§8 restore race'],
    rule: 'two requests claiming one restored continuation: the second is duplicate_execution',
  },
  // ---- docs/real-stack.md: the wire of the NeMo-RL controller and Gym's participants ----
  {
    id: 'wire.schema-version-optional',
    sources: ['§3.1', 'docs/real-stack.md'],
    rule: 'a control body without schema_version is version 1 (the real controller sends none); any other version is still refused',
  },
  {
    id: 'wire.model-status-query',
    sources: ['§3.2', 'docs/real-stack.md'],
    rule: "model-admission/status accepts the real controller's query checkpoint_id, deadline_ts, wait_state=paused, timeout_s; the long-poll ends at the deadline",
  },
  {
    id: 'wire.agent-prepare-waits',
    sources: ['§3.3', 'docs/real-stack.md'],
    rule: "agent prepare answers as Gym's agent does: once ready to commit, else at the deadline 409 agent_prepare_incomplete, park requests reverted and the fence idle (?wait_ready=0 answers at once)",
  },
  {
    id: 'wire.completion-receipt',
    sources: ['§3.3', '§6.3', 'docs/real-stack.md'],
    rule: 'agent status lists completed_unacknowledged_attempts[].completion_receipt; acknowledge takes that receipt flat or wrapped and answers {acknowledged, idempotent}',
  },
  {
    id: 'wire.model-commit-reads-roots',
    sources: ['§3.2', '§5.1', 'docs/real-stack.md'],
    rule: 'model-checkpoint/commit without continuation_roots takes the roots of the agent namespace already committed in D (ledger_mismatch when there is none)',
  },
  {
    id: 'wire.participant-id-order',
    sources: ['§3.5', 'docs/real-stack.md'],
    rule: "committed in the real controller's participant-id order (agent, blackjack, counter, policy, workplace), Cutover's participants give a checkpoint that verifies",
  },
  {
    id: 'wire.checkpoint-roots',
    sources: ['docs/real-stack.md'],
    rule: "a participant accepts an absolute checkpoint_dir under any CUTOVER_CHECKPOINT_ROOTS root (default the data directory), elsewhere 400 path_escape; Cutover's controller sends absolute paths",
  },
  {
    id: 'wire.aggregate-participant-id',
    sources: ['§5.5', 'docs/real-stack.md'],
    rule: "the aggregate manifest's participant_id is the server's name (agent, policy, blackjack, counter, workplace), so the real controller restores a Cutover-published checkpoint",
  },
  {
    id: 'wire.nemo-rl-checkpoint',
    sources: ['§5.5', 'docs/real-stack.md'],
    rule: 'verify and inspect accept a checkpoint the NeMo-RL controller published (only nemo_gym_checkpoint_manifest.json), name publisher nemo-rl, and still check every digest',
  },
  {
    id: 'wire.snapshot-schema-1',
    sources: ['§5.3', 'docs/real-stack.md'],
    rule: 'the directory layer reads ResourceSnapshot schema 1 (float-second created_at, no receipts, every served session) as well as schema 2, and writes only 2',
  },
  {
    id: 'wire.answer-schemas',
    sources: ['§3.5', 'docs/real-stack.md'],
    rule: "Cutover's controller validates every participant answer against a schema: one that does not fit is participant_protocol_error naming participant, route and field, and the cycle aborts cleanly",
  },
  {
    id: 'wire.real-resources',
    sources: ['§3.4', 'docs/real-stack.md'],
    rule: "Cutover's controller drives the real Gym resources participant (its recorded answers and v1 files) through commit, publish, restore and resume, and the directory verifies",
  },
  {
    id: 'wire.replay-real-cycle',
    sources: ['§3.5', '§3.7', 'docs/real-stack.md'],
    rule: "the real controller's recorded requests, replayed exactly, get answers it parses and accepts, and the cycle ends with every continued rollout finished",
  },
  {
    id: 'wire.plain-responses',
    sources: ['§3.2', 'docs/real-stack.md'],
    rule: "cutover model answers a plain OpenAI Responses body (a real Gym agent's) with its scripted policy; metadata.cutover_policy is optional",
  },
  {
    id: 'wire.identity-headers',
    sources: ['§2.1', 'docs/real-stack.md'],
    rule: 'identity headers are accepted as x-nemo-gym-rollout-id/x-nemo-gym-attempt-index and as the older x-ng-rollout-id/x-ng-attempt-index (disagreeing values are execution_identity_mismatch)',
  },
  {
    id: 'wire.error-detail',
    sources: ['§3.1', 'docs/real-stack.md'],
    rule: 'every error body is {error:{code, message, detail}} with detail = message (what Gym clients read)',
  },
  // ---- docs/recording.md: recording a real checkpoint from outside ----
  {
    id: 'record.forward-unchanged',
    sources: ['docs/recording.md'],
    rule: 'a recording proxy forwards method, path, query, headers, status and body bytes unchanged (only Host is the upstream’s); chunked and streaming answers stream, long polls wait, and it never reads a message to forward it',
  },
  {
    id: 'record.no-secret',
    sources: ['docs/recording.md'],
    rule: 'no recording line holds the Authorization header, the control token or any credential an Authorization header carried, in headers, query or bodies',
  },
  {
    id: 'record.bounded-body',
    sources: ['docs/recording.md'],
    rule: 'a body longer than the bound keeps its head, its full size and the SHA-256 of the whole body',
  },
  {
    id: 'record.upstream-down',
    sources: ['docs/recording.md', '§3.5'],
    rule: 'an upstream that does not answer gets the client 502 {"error": {"code": "transport_error", …}}, recorded like any answer',
  },
  {
    id: 'record.crash-safe',
    sources: ['docs/recording.md'],
    rule: 'each exchange is one line appended when it ends: a killed recorder loses only exchanges in flight, a half-written last line is reported and every line before it kept, and a server lists the recording',
  },
  {
    id: 'record.live',
    sources: ['docs/recording.md'],
    rule: 'a recorded run is listed and followed live while its recorder records: the same run, SSE, range and step routes as any run',
  },
  {
    id: 'import.malformed-line',
    sources: ['docs/recording.md'],
    rule: 'cutover import refuses a recording with a line that is not an exchange, exit 2 naming the line, nothing stored',
  },
  {
    id: 'recorded.trace',
    sources: ['docs/recording.md', '§12.2'],
    rule: 'a recorded run has one event per exchange in recording order, controller → participant for control calls and /run, agent → participant for data-plane calls, phases from the control routes, the exchange whole in its payload',
  },
  {
    id: 'recorded.checks',
    sources: ['docs/recording.md'],
    rule: 'the checks a black box allows pass, fail naming the exchange that breaks them, or say they were not observed; the invariants they stand for fail with them',
  },
] as const satisfies readonly SpecRule[]

/** Every rule id. */
export type SpecRuleId = (typeof SPEC_RULES)[number]['id']

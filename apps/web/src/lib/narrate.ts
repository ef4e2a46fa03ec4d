import type { JsonValue, TraceEvent } from '@cutover/core/contracts'

/** Why a participant refuses, in words, for the codes a demo shows. */
const REFUSALS: { readonly [code: string]: string } = {
  stale_attempt: 'it belongs to an attempt that was fenced, so it is refused and changes nothing',
  stale_checkpoint: 'it names an older checkpoint than the one in progress',
  checkpoint_conflict: 'another checkpoint id is already in progress',
  invalid_phase: 'the participant is not in the phase this request needs',
  deadline_exceeded: 'the prepare deadline has passed',
  duplicate_execution:
    'this execution has already run once; its recorded result is replayed instead',
  restored_cut_already_owned: 'another request already claimed this restored continuation',
  restored_cut_consumed: 'this restored continuation was already consumed',
  missing_workers: 'not every model worker acknowledged',
  unsafe_resources_restore: 'restoring would not be all-or-nothing, so nothing is activated',
  agent_admission_closed: 'admission is closed while the checkpoint is taken',
  checkpoint_parked: 'the model call is parked for the checkpoint',
  generation_cut_failed:
    'the prefix could not be staged durably, so the call will be generated again',
  restored_cut_segment_missing:
    'a token-store segment the cut names is missing, so nothing is installed',
  restored_cut_digest_mismatch:
    'a token-store segment does not match its digest, so nothing is installed',
}

const PHASE_LEAD: { readonly [phase: string]: string } = {
  run: 'rollouts run',
  prepare: 'prepare',
  retire: 'straggler retirement',
  commit: 'commit',
  restore: 'restore',
  resume: 'resume',
  continue: 'the fleet continues',
  abort: 'abort',
}

/**
 * A participant id as a person says it: `resources_workplace` → `the workplace resources server`.
 */
export function participantName(id: string): string {
  if (id === 'controller') return 'the controller'
  if (id === 'agent') return 'the agent'
  if (id === 'policy_model') return 'the policy model'
  if (id === 'generation_worker') return 'the generation worker'
  if (id === 'token_store') return 'the token store'
  if (id === 'directory') return 'the checkpoint directory'
  const worker = /^model_worker_(\d+)$/.exec(id)
  if (worker) return `model worker ${worker[1]}`
  const resources = /^resources_(.+)$/.exec(id)
  if (resources) return `the ${resources[1]} resources server`
  const rollout = /^rollout_(.+)$/.exec(id)
  if (rollout) return `rollout ${rollout[1]}`
  return id
}

const str = (v: JsonValue | undefined) =>
  typeof v === 'string' || typeof v === 'number' ? String(v) : undefined

/**
 * The rollout (and attempt) an event is about, from its payload or a `rollout_<id>` participant.
 */
function subject(event: TraceEvent): string | undefined {
  const rollout =
    str(event.payload['rollout_id']) ??
    /^rollout_(.+)$/.exec(event.from)?.[1] ??
    /^rollout_(.+)$/.exec(event.to)?.[1]
  if (!rollout) return undefined
  const attempt = str(event.payload['attempt_index'] ?? event.payload['attempt'])
  return attempt === undefined ? `rollout ${rollout}` : `rollout ${rollout} (attempt ${attempt})`
}

/** `agent.prepare` → `prepare`; `model.abort_generation` → `abort generation`. */
function verb(type: string): string {
  const last = type.split('.').at(-1) ?? type
  return last.replace(/[_-]+/g, ' ')
}

const num = (v: JsonValue | undefined) => (typeof v === 'number' ? v : undefined)

/**
 * Sentences for the event types of the simulator's catalogue
 * (packages/core/src/simulator/EVENTS.md).
 */
function sentence(event: TraceEvent, from: string, to: string, about: string): string | undefined {
  const p = event.payload
  const path = str(p['path'])
  switch (event.type) {
    case 'run.dispatch':
      return p['continued'] === true
        ? `${from} dispatches ${about}, claiming its restored continuation.`
        : `${from} dispatches ${about} to ${to}.`
    case 'env.start':
      return `${from} opens ${about}'s session on ${to} (${path ?? 'start'}).`
    case 'agent.boundary':
      return p['parked'] === true
        ? `${about} reaches a turn boundary and parks there for the checkpoint.`
        : `${about} passes a turn boundary; the agent records it.`
    case 'model.request':
      return p['relay'] === true
        ? `${about} asks the policy model for its next turn, relaying from the restored parent call ${str(p['parent_call_id']) ?? ''}.`
        : `${about} asks ${to} for a completion.`
    case 'generation.stage':
    case 'token.stage':
    case 'generation.coordinates':
      return `${from} → ${to}: ${verb(event.type)} of ${about}'s model call.`
    case 'model.response':
      return `${to} receives ${about}'s model response.`
    case 'env.request':
      return `${from} calls ${path ?? 'a tool'} for ${about} on ${to}${p['replayed'] === true ? ' — a replay: the recorded result comes back, nothing runs twice' : ''}.`
    case 'env.verify':
      return `${about} is graded by ${to}: reward ${num(p['reward']) ?? '?'}.`
    case 'run.complete':
      return `${about} finishes with reward ${num(p['reward']) ?? '?'} and reports to the controller.`
    case 'agent.acknowledge':
      return 'The controller acknowledges completed results, so the agent can release them.'
    case 'agent.prepare':
      return `The controller opens checkpoint ${str(p['checkpoint_id']) ?? ''}: the agent stops admitting work and parks every rollout at its next turn boundary (deadline ${num(p['deadline_ms']) ?? '?'} ms).`
    case 'model.pause':
      return 'The policy model closes admission and drains its in-flight calls.'
    case 'model.status':
    case 'agent.status':
      return `The controller polls ${to}: is it ready to commit?`
    case 'model.abort_inflight':
      return `The deadline passed while ${about} was still generating: the policy model aborts its in-flight call and tombstones the attempt.`
    case 'agent.retire':
      return `The agent retires the straggler ${about}; it will be redispatched fresh after restore.`
    case 'rollout.retired':
      return `${about} is sacrificed: the checkpoint goes on without it.`
    case 'model.task_exit':
      return `The cancelled generation of ${about} finally exits.`
    case 'resources.prepare':
      return `${to} freezes its sessions and lists what it will export.`
    case 'resources.retire':
      return `${to} drops ${about}'s session: nothing of the straggler enters the checkpoint.`
    case 'directory.write':
      return `${from} writes ${path ?? 'a file'} into the checkpoint directory.`
    case 'directory.verify':
      return `${from} reads and checks ${num(p['checked']) ?? '?'} of ${num(p['total']) ?? '?'} files of ${path ?? 'a namespace'} against their manifest digests, one batch at a time.`
    case 'agent.commit':
    case 'model.commit':
    case 'resources.commit':
      return `The controller tells ${to} to commit: its files and manifest go into the directory.`
    case 'token_store.snapshot':
      return 'The token store snapshots its staged tokens, after the aggregate manifest.'
    case 'model.restore':
      return 'A fresh policy model restores its ledger; retired attempts stay tombstoned.'
    case 'agent.restore':
      return 'A fresh agent restores its boundary records and knows which rollouts continue under attempt N+1.'
    case 'resources.restore':
      return `${to} restores ${num(p['activated']) ?? '?'} of ${num(p['expected']) ?? '?'} sessions, all or nothing.`
    case 'model.resume':
    case 'resources.resume':
    case 'agent.resume':
      return `${to} resumes and admits work again.`
    case 'controller.abort':
    case 'controller.restore_abandoned':
      return `The controller abandons the checkpoint: ${str(p['reason']) ?? 'see the payload'}.`
    // generation-safe cuts (docs/protocol.md §11): the token boundary, its durability, the fence,
    // the continuation
    case 'generation.cut':
      return `${about}'s call ${str(p['model_call_id']) ?? ''} is still generating: ${from} asks ${to} to cut it at token ${num(p['prefix_token_count']) ?? 'k'} — the buffer up to there is frozen, decoding goes on into a fresh one.`
    case 'token.stage_prefix':
      return p['durable'] === false
        ? `${from} tries to stage ${about}'s prefix in the token store, but it cannot be made durable.`
        : `${from} stages ${about}'s prefix (${num(p['prefix_token_count']) ?? '?'} tokens, ${str(p['staging_key']) ?? 'a segment'}) in the token store and waits until it is durable.`
    case 'generation.cut_ack':
      return cutAck(p, from, about)
    case 'model.egress_fenced':
      return `The policy model fences ${about}'s response: no byte of call ${str(p['model_call_id']) ?? ''} reaches the agent until the checkpoint is committed or aborted.`
    case 'model.egress_released':
      return p['disposition'] === 'committed'
        ? `The checkpoint is committed: the fence on ${about}'s call ${str(p['model_call_id']) ?? ''} lifts and its held response is dropped — attempt N+1 continues the call.`
        : `The checkpoint was aborted: the fence on ${about}'s call ${str(p['model_call_id']) ?? ''} lifts${p['delivered'] === true ? ' and its held response is delivered, once' : ' and the call keeps generating from where it is'} — nothing is generated again.`
    case 'generation.claim_cut':
      return `${from} claims the restored cut of call ${str(p['cut_model_call_id']) ?? ''} for ${about}: a lease, so exactly one worker continues it.`
    case 'generation.continue':
      return num(p['continuation_token_count']) === 0
        ? `${about} takes over the cut call ${str(p['cut_model_call_id']) ?? ''}: all ${num(p['prefix_token_count']) ?? '?'} tokens come from custody (prefix delivered ${str(p['prefix_delivery']) ?? '?'}), nothing is generated again.`
        : `${about} continues the cut call ${str(p['cut_model_call_id']) ?? ''} from token ${num(p['prefix_token_count']) ?? 'k'} (prefix delivered ${str(p['prefix_delivery']) ?? '?'}) and generates ${num(p['continuation_token_count']) ?? 'the remaining'} more tokens: it ends exactly as if it had never been interrupted.`
    case 'model.worker_close':
    case 'model.worker_ack':
    case 'model.worker_register':
    case 'agent.prepare_deadline':
    case 'fault.corrupt_file':
    case 'controller.publish_refused':
    case 'participant.capabilities': // recorded runs: discovery, and uncatalogued routes
    case 'participant.call':
      return undefined // the generic line says it
    default:
      return unknownType(event)
  }
}

/** A worker's acknowledgement of one frozen ticket, by its disposition. */
function cutAck(p: TraceEvent['payload'], from: string, about: string): string {
  const k = num(p['prefix_token_count'])
  switch (p['disposition']) {
    case 'durable_prefix':
      return p['cut_kind'] === 'terminal_completion'
        ? `${from} acknowledges ${about}'s call: it finished behind the egress fence and all ${k ?? '?'} of its tokens are durable (completed_durable).`
        : `${from} acknowledges ${about}'s call as durable_prefix: ${k ?? '?'} tokens, durable in the token store before the acknowledgement.`
    case 'completed_durable':
      return `${from} acknowledges ${about}'s call: it finished behind the egress fence and all ${k ?? '?'} of its tokens are durable (completed_durable); after restore the result is delivered from custody, nothing is generated again.`
    case 'durable_failure':
      return `${from} could not stage ${about}'s prefix and says so durably (durable_failure): the call will be generated again after restore, and the checkpoint is not blocked.`
    default:
      return `${from} classifies ${about}'s call as ${str(p['disposition']) ?? '?'}.`
  }
}

/**
 * The end of the exhaustive switch: the compiler proves every catalogued type has a case; at run
 * time a type the catalogue does not know (a newer server's) gets the generic line.
 */
function unknownType(_event: never): undefined {
  return undefined
}

/**
 * One plain sentence for a trace event, for the straggler demo's narrative column: who tells whom
 * to do what, about which rollout, and — for a refusal — why it is refused.
 */
export function narrate(event: TraceEvent | null): string {
  if (!event)
    return 'Before the first message: the fleet is about to start; nothing has been checkpointed yet.'
  const from = participantName(event.from)
  const to = participantName(event.to)
  const about = subject(event) ?? 'the rollout'
  const lead = PHASE_LEAD[event.phase] ?? event.phase
  if (event.outcome !== 'ok') {
    const why = REFUSALS[event.outcome] ?? `it answers ${event.outcome}`
    const stale = /^rollout_/.test(event.from)
      ? `A delayed request from the retired ${about} reaches ${to}. `
      : ''
    return `${lead}: ${stale}${capitalise(to)} refuses ${event.type} with ${event.outcome} — ${why}.`
  }
  return `${lead}: ${capitalise(sentence(event, from, to, about) ?? `${from} → ${to}: ${verb(event.type)} for ${about}.`)}`
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

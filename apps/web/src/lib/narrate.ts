import type { JsonValue, TraceEvent } from '@cutover/core/contracts'

/** Why a participant refuses, in words, for the codes a demo shows. */
const REFUSALS: { readonly [code: string]: string } = {
  stale_attempt: 'it belongs to an attempt that was fenced, so it is refused and changes nothing',
  stale_checkpoint: 'it names an older checkpoint than the one in progress',
  checkpoint_conflict: 'another checkpoint id is already in progress',
  invalid_phase: 'the participant is not in the phase this request needs',
  deadline_exceeded: 'the prepare deadline has passed',
  duplicate_execution: 'this execution has already run once; its recorded result is replayed instead',
  restored_cut_already_owned: 'another request already claimed this restored continuation',
  restored_cut_consumed: 'this restored continuation was already consumed',
  missing_workers: 'not every model worker acknowledged',
  unsafe_resources_restore: 'restoring would not be all-or-nothing, so nothing is activated',
  agent_admission_closed: 'admission is closed while the checkpoint is taken',
  checkpoint_parked: 'the model call is parked for the checkpoint',
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

/** A participant id as a person says it: `resources_workplace` → `the workplace resources server`. */
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

const str = (v: JsonValue | undefined) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined)

/** The rollout (and attempt) an event is about, from its payload or a `rollout_<id>` participant. */
function subject(event: TraceEvent): string | undefined {
  const rollout = str(event.payload['rollout_id']) ?? /^rollout_(.+)$/.exec(event.from)?.[1] ?? /^rollout_(.+)$/.exec(event.to)?.[1]
  if (!rollout) return undefined
  const attempt = str(event.payload['attempt_index'] ?? event.payload['attempt'])
  return attempt === undefined ? `rollout ${rollout}` : `rollout ${rollout} (attempt ${attempt})`
}

/** `agent.prepare` → `prepare`; `model.abort_generation` → `abort generation`. */
function verb(type: string): string {
  const last = type.split('.').at(-1) ?? type
  return last.replace(/[_-]+/g, ' ')
}

/**
 * One plain sentence for a trace event, for the straggler demo's narrative column: who tells whom
 * to do what, about which rollout, and — for a refusal — why it is refused.
 */
export function narrate(event: TraceEvent | null): string {
  if (!event) return 'Before the first message: the fleet is generating; nothing has been checkpointed yet.'
  const from = participantName(event.from)
  const to = participantName(event.to)
  const about = subject(event)
  const what = `${verb(event.type)}${about ? ` for ${about}` : ''}`
  const lead = PHASE_LEAD[event.phase] ?? event.phase
  if (event.outcome !== 'ok') {
    const why = REFUSALS[event.outcome] ?? `it answers ${event.outcome}`
    return `${lead}: ${to} refuses ${from}'s ${what} with ${event.outcome} — ${why}.`
  }
  if (event.phase === 'retire') {
    return `${lead}: the deadline passed while ${about ?? 'a rollout'} was still generating — ${from} tells ${to} to ${verb(event.type)}, so the straggler is sacrificed and will be redispatched fresh.`
  }
  return `${lead}: ${from} → ${to}: ${what}.`
}

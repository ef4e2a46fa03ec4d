import type { TracePhase } from '../contracts/trace.ts'

/** The role a participant plays, as its routes or its name tell it. */
export type ParticipantRole = 'model' | 'agent' | 'resources'

/** What a control call does in the cycle (the operation of its route). */
export type ControlOperation =
  | 'capabilities'
  | 'prepare'
  | 'status'
  | 'retire'
  | 'commit'
  | 'restore'
  | 'resume'
  | 'abort'
  | 'acknowledge'
  | 'other'

/** One exchange's route read from its method and path alone (never its bodies). */
export interface ExchangeRoute {
  /** Control calls go under `/ng-control/`; the rest is the data plane (or liveness). */
  readonly plane: 'control' | 'data'
  /** The role the route belongs to, when the route says it. */
  readonly role: ParticipantRole | null
  readonly operation: ControlOperation | 'run' | 'model_call' | 'env_start' | 'env_verify' | 'call'
  /** The trace event type that stands for the exchange (simulator/EVENTS.md, recorded runs). */
  readonly type: string
  /** The phase the call moves the cycle into; null keeps the phase the cycle is in. */
  readonly phase: TracePhase | null
}

const CONTROL = '/ng-control/v1/'
/** The data-plane paths the model's admission gates (docs/protocol.md §3.2). */
const MODEL_CALL = /\/v1\/(responses|chat\/completions|messages)$/
/** `/ng-rollout/<capture_key>/…`: the rollout prefix of data-plane calls. */
const ROLLOUT_PREFIX = /^\/ng-rollout\/([^/]+)(\/.*)$/

/** The path without the rollout prefix, and the capture key the prefix names (or null). */
export function splitRolloutPrefix(path: string): { path: string; capture: string | null } {
  const m = ROLLOUT_PREFIX.exec(path)
  return m === null ? { path, capture: null } : { path: m[2] as string, capture: m[1] as string }
}

const PHASE_OF: { readonly [op in ControlOperation]: TracePhase | null } = {
  capabilities: null,
  prepare: 'prepare',
  status: null,
  retire: 'retire',
  commit: 'commit',
  restore: 'restore',
  resume: 'resume',
  abort: 'abort',
  acknowledge: null,
  other: null,
}

/** A control operation from the last segment of its route (`abort_inflight` is a retirement). */
function operationOf(segment: string): ControlOperation {
  switch (segment) {
    case 'pause':
    case 'prepare':
      return 'prepare'
    case 'status':
      return 'status'
    case 'abort_inflight':
    case 'abort-inflight':
    case 'retire':
      return 'retire'
    case 'commit':
    case 'token-snapshot':
      return 'commit'
    case 'restore':
      return 'restore'
    case 'resume':
      return 'resume'
    case 'abort':
      return 'abort'
    case 'acknowledge':
    case 'acknowledge-completed':
      return 'acknowledge'
    default:
      return 'other'
  }
}

/** The simulator's event type for a control route of a role, or null when it has none. */
function controlType(role: ParticipantRole, segment: string, op: ControlOperation): string | null {
  if (role === 'model') {
    if (segment === 'pause') return 'model.pause'
    if (segment === 'status') return 'model.status'
    if (op === 'retire') return 'model.abort_inflight'
    if (segment === 'commit') return 'model.commit'
    if (segment === 'restore') return 'model.restore'
    if (segment === 'resume') return 'model.resume'
    return null
  }
  const ops: readonly ControlOperation[] =
    role === 'agent'
      ? ['prepare', 'status', 'retire', 'commit', 'restore', 'resume', 'acknowledge']
      : ['prepare', 'retire', 'commit', 'restore', 'resume']
  return ops.includes(op) ? `${role}.${op}` : null
}

/**
 * Reads an exchange's route: which plane, which role, which operation, the event type that draws
 * it and the phase it moves the cycle into. Only the method and path are read: a route the
 * catalogue does not name is a `participant.call`, drawn like any other.
 */
export function exchangeRoute(method: string, rawPath: string): ExchangeRoute {
  const path = rawPath.split('?')[0] ?? rawPath
  if (path.startsWith(CONTROL)) {
    const rest = path.slice(CONTROL.length).split('/')
    const family = rest[0] ?? ''
    const segment = rest[rest.length - 1] ?? ''
    if (rest.length === 1 && family === 'capabilities')
      return {
        plane: 'control',
        role: null,
        operation: 'capabilities',
        type: 'participant.capabilities',
        phase: null,
      }
    const role: ParticipantRole | null = family.startsWith('model-')
      ? 'model'
      : family.startsWith('agent-')
        ? 'agent'
        : family.startsWith('resources-')
          ? 'resources'
          : null
    const operation = operationOf(segment)
    const type = role === null ? null : controlType(role, segment, operation)
    return {
      plane: 'control',
      role,
      operation,
      type: type ?? 'participant.call',
      phase: PHASE_OF[operation],
    }
  }
  const { path: inner } = splitRolloutPrefix(path)
  if (MODEL_CALL.test(inner))
    return {
      plane: 'data',
      role: 'model',
      operation: 'model_call',
      type: 'model.request',
      phase: null,
    }
  if (inner === '/run' && method.toUpperCase() === 'POST')
    return { plane: 'data', role: 'agent', operation: 'run', type: 'run.dispatch', phase: null }
  if (inner === '/seed_session' || inner === '/reset')
    return {
      plane: 'data',
      role: 'resources',
      operation: 'env_start',
      type: 'env.start',
      phase: null,
    }
  if (inner === '/verify')
    return {
      plane: 'data',
      role: 'resources',
      operation: 'env_verify',
      type: 'env.verify',
      phase: null,
    }
  return { plane: 'data', role: null, operation: 'call', type: 'participant.call', phase: null }
}

import { assertNever } from '../assert.ts'
import type { TraceEventType } from '../contracts/trace.ts'

/**
 * True for the event types by which an attempt writes state somewhere (admission, custody,
 * mutation, boundary): a fenced attempt must never get one accepted (`fenced-attempt-silent`).
 * Exhaustive, so a new event type has to be classified here before the invariant can miss it.
 */
export function writesAttemptState(type: TraceEventType): boolean {
  switch (type) {
    case 'model.request':
    case 'model.response':
    case 'generation.stage':
    case 'token.stage':
    case 'env.start':
    case 'env.request':
    case 'env.verify':
    case 'agent.boundary':
    case 'run.dispatch':
    case 'token.stage_prefix':
    case 'generation.claim_cut':
    case 'generation.continue':
      return true
    case 'generation.coordinates':
    case 'run.complete':
    case 'agent.acknowledge':
    case 'agent.prepare':
    case 'model.pause':
    case 'model.worker_close':
    case 'model.worker_ack':
    case 'model.worker_register':
    case 'model.status':
    case 'agent.status':
    case 'agent.prepare_deadline':
    case 'model.abort_inflight':
    case 'agent.retire':
    case 'rollout.retired':
    case 'model.task_exit':
    case 'resources.prepare':
    case 'resources.retire':
    case 'agent.commit':
    case 'model.commit':
    case 'resources.commit':
    case 'token_store.snapshot':
    case 'directory.write':
    case 'directory.verify':
    case 'fault.corrupt_file':
    case 'model.restore':
    case 'agent.restore':
    case 'resources.restore':
    case 'model.resume':
    case 'resources.resume':
    case 'agent.resume':
    case 'controller.abort':
    case 'controller.publish_refused':
    case 'controller.restore_abandoned':
    case 'generation.cut':
    case 'generation.cut_ack':
    case 'model.egress_fenced':
    case 'model.egress_released':
    case 'participant.capabilities': // recorded runs only: discovery, and uncatalogued routes
    case 'participant.call':
      return false
    default:
      return assertNever(type)
  }
}

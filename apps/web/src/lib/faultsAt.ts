import { directoryWriteFaults } from '@cutover/core/contracts'
import type { Fault, TraceMessage } from '@cutover/core/contracts'

/** A fault the current event offers: the fault itself and a line saying what it does there. */
export interface OfferedFault {
  readonly fault: Fault
  readonly label: string
}

/** The `stale_request` participant an event's end stands for, if it is one. */
function staleParticipant(id: string): 'policy_model' | 'agent' | 'resources' | null {
  if (id === 'policy_model' || id === 'agent') return id
  return id.startsWith('resources_') ? 'resources' : null
}

/** The worker number of a `model_worker_<k>` participant. */
function workerOf(id: string): number | null {
  const match = /^model_worker_(\d+)$/.exec(id)
  return match ? Number(match[1]) : null
}

/**
 * The faults that make sense at `event` of a run's trace (`events`, in step order): a straggler, an
 * unacknowledged result or a delayed request on the event's rollout; a crash at this directory
 * write and a corrupt byte in this file (numbered as the simulator numbers them:
 * `directoryWriteFaults`); a missing worker for a worker's event. Faults already in `schedule` are
 * left out. A straggler is slow by four deadlines, so it is still generating when the prepare
 * deadline passes.
 */
export function faultsAt(
  event: TraceMessage,
  events: readonly TraceMessage[],
  options: { readonly deadlineMs: number; readonly schedule: readonly Fault[] },
): OfferedFault[] {
  const offered: OfferedFault[] = []
  const rollout = event.payload['rollout_id']
  if (typeof rollout === 'string') {
    offered.push({
      fault: { kind: 'straggler', rollout, extra_ms: Math.max(1, options.deadlineMs) * 4 },
      label: `straggler: ${rollout}'s model call still generating at the prepare deadline`,
    })
    const participant = staleParticipant(event.to) ?? staleParticipant(event.from) ?? 'policy_model'
    offered.push({
      fault: { kind: 'stale_request', rollout, participant },
      label: `delayed request from ${rollout}'s attempt reaching ${participant} after restore`,
    })
    if (event.type === 'run.complete')
      offered.push({
        fault: { kind: 'unacked_result', rollout },
        label: `${rollout}'s result still unacknowledged at prepare`,
      })
  }
  if (event.type === 'directory.write') {
    // numbered as the simulator numbers them (core's contracts own the counting)
    const path = event.payload['path']
    for (const fault of directoryWriteFaults(events, event.step)) {
      if (fault.kind === 'crash_after_write')
        offered.push({
          fault,
          label: `crash at directory write ${fault.k}${typeof path === 'string' ? ` (${path})` : ''}`,
        })
      else if (fault.kind === 'corrupt_file')
        offered.push({ fault, label: `corrupt byte in ${String(path)}` })
    }
  }
  const worker = event.payload['worker']
  const k = typeof worker === 'number' ? worker : (workerOf(event.to) ?? workerOf(event.from))
  if (k !== null)
    offered.push({
      fault: { kind: 'missing_worker', worker: k },
      label: `model worker ${k} never acknowledges the admission close`,
    })
  const scheduled = new Set(options.schedule.map((f) => JSON.stringify(f)))
  return offered.filter((o) => !scheduled.has(JSON.stringify(o.fault)))
}

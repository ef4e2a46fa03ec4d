import type { Fault, TraceMessage } from '@cutover/core/contracts'

/** A fault the current event offers: the fault itself and a line saying what it does there. */
export interface OfferedFault {
  readonly fault: Fault
  readonly label: string
}

/** Namespaces a `corrupt_file` fault can name (CONTRACTS.md §3). */
const NAMESPACES = ['resources', 'agent', 'model-ledger'] as const

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
 * The faults that make sense at `event` of a run's trace (`events`, in step order): a straggler,
 * an unacknowledged result or a delayed request on the event's rollout; a crash at this directory
 * write (`k` counts the run's directory writes, as the simulator does); a corrupt byte in this
 * file (its namespace and its index among the namespace's files, sorted, manifests excluded); a
 * missing worker for a worker's event. Faults already in `schedule` are left out. A straggler is
 * slow by four deadlines, so it is still generating when the prepare deadline passes.
 */
export function faultsAt(event: TraceMessage, events: readonly TraceMessage[], options: { readonly deadlineMs: number; readonly schedule: readonly Fault[] }): OfferedFault[] {
  const offered: OfferedFault[] = []
  const rollout = event.payload['rollout_id']
  if (typeof rollout === 'string') {
    offered.push({ fault: { kind: 'straggler', rollout, extra_ms: Math.max(1, options.deadlineMs) * 4 }, label: `straggler: ${rollout}'s model call still generating at the prepare deadline` })
    const participant = staleParticipant(event.to) ?? staleParticipant(event.from) ?? 'policy_model'
    offered.push({ fault: { kind: 'stale_request', rollout, participant }, label: `delayed request from ${rollout}'s attempt reaching ${participant} after restore` })
    if (event.type === 'run.complete') offered.push({ fault: { kind: 'unacked_result', rollout }, label: `${rollout}'s result still unacknowledged at prepare` })
  }
  if (event.type === 'directory.write') {
    const writes = events.filter((e) => e.type === 'directory.write' && e.step <= event.step).length
    const path = event.payload['path']
    offered.push({ fault: { kind: 'crash_after_write', k: Math.max(1, writes) }, label: `crash at directory write ${writes}${typeof path === 'string' ? ` (${path})` : ''}` })
    const namespace = typeof path === 'string' ? NAMESPACES.find((n) => path.startsWith(`${n}/`)) : undefined
    if (typeof path === 'string' && namespace && !path.endsWith('/manifest.json')) {
      const files = [...new Set(events.filter((e) => e.type === 'directory.write').map((e) => e.payload['path']))]
        .filter((p): p is string => typeof p === 'string' && p.startsWith(`${namespace}/`) && !p.endsWith('/manifest.json'))
        .sort()
      offered.push({ fault: { kind: 'corrupt_file', namespace, index: files.indexOf(path) }, label: `corrupt byte in ${path}` })
    }
  }
  const worker = event.payload['worker']
  const k = typeof worker === 'number' ? worker : (workerOf(event.to) ?? workerOf(event.from))
  if (k !== null) offered.push({ fault: { kind: 'missing_worker', worker: k }, label: `model worker ${k} never acknowledges the admission close` })
  const scheduled = new Set(options.schedule.map((f) => JSON.stringify(f)))
  return offered.filter((o) => !scheduled.has(JSON.stringify(o.fault)))
}

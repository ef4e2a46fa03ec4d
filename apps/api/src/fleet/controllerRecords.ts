import type { JsonValue } from '@cutover/core'
import type { TracePhase } from '@cutover/core/contracts'
import type { ControlCallRecord } from '../controller/controlCall.ts'
import type { ControllerTraceEntry } from '../controller/RealTimeHost.ts'
import type { WireRecord } from '../participants/processTrace.ts'

/** The control endpoint (under `/ng-control/v1/`) an event type of the controller stands for. */
function endpointOf(type: string): string | null {
  const [who, op] = type.split('.')
  if (op === undefined) return null
  if (who === 'agent') return `agent-checkpoint/${op === 'prepare_deadline' ? 'status' : op}`
  if (who === 'resources') return `resources-checkpoint/${op}`
  if (who === 'model')
    return op === 'commit' || op === 'restore' ? `model-checkpoint/${op}` : `model-admission/${op}`
  return null
}

/**
 * The controller's trace entries as wire records of this process. The controller notes a call once
 * its answer arrived; each entry takes the time its call was sent (the latest call to the same
 * participant and endpoint answered by then, each call used once), so the messages the participant
 * sent while handling it (its directory writes) follow it in the merged trace.
 */
export function controllerRecords(
  entries: readonly ControllerTraceEntry[],
  calls: readonly ControlCallRecord[],
  pid: number,
): (WireRecord & { readonly phase: TracePhase })[] {
  const used = new Set<ControlCallRecord>()
  return entries.map((e, seq) => {
    const endpoint = endpointOf(e.type)
    let sent = e.wall_ms
    if (endpoint !== null) {
      for (let i = calls.length - 1; i >= 0; i--) {
        const c = calls[i] as ControlCallRecord
        if (
          used.has(c) ||
          c.participant !== e.to ||
          c.answered_at > e.wall_ms ||
          !c.endpoint.startsWith(endpoint)
        )
          continue
        used.add(c)
        sent = c.sent_at
        break
      }
    }
    return {
      from: e.from,
      to: e.to,
      type: e.type,
      payload: e.payload as { [key: string]: JsonValue },
      outcome: e.outcome,
      wall_ms: sent,
      pid,
      seq,
      phase: e.phase,
    }
  })
}

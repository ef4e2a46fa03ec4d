import type { Fault, InertFault, RunConfig } from '../contracts/scenarios.ts'
import type { TraceEvent } from '../contracts/trace.ts'
import { faultRolloutId } from './checkFaults.ts'

const rolloutOf = (e: TraceEvent): unknown => e.payload['rollout_id']

/** Why a fault of `kind` had no effect (the run's trace shows no sign of it). */
function reasonFor(f: Fault, id: string): string {
  switch (f.kind) {
    case 'straggler':
      return `rollout ${id}'s model call was not in flight at the prepare deadline, so nothing was retired (raise extra_ms, or check that a checkpoint prepared while ${id} ran)`
    case 'stale_request':
      return `no restore continued rollout ${id}, so no delayed request of an earlier attempt could reach ${f.participant}`
    case 'corrupt_file':
      return `no committed checkpoint has a ${f.namespace} file number ${f.index} (files are counted from 0 in path order)`
    case 'crash_after_write':
      return `the run made fewer than ${f.k} directory writes (writes are counted from 1 over every commit of the run, crashed ones included)`
    case 'missing_worker':
      return `no checkpoint waited for worker ${f.worker}'s acknowledgement`
    case 'unacked_result':
      return `rollout ${id} had no completed result awaiting acknowledgement when the checkpoint prepared`
    case 'duplicate_claim':
      return `rollout ${id} was never continued after a restore, so there was no continuation to claim twice`
    case 'constrained_decoding':
      return `rollout ${id} had no model call admitted when a generation-safe checkpoint closed admission, so there was nothing to exclude`
    case 'cut_stage_failure':
      return `rollout ${id} had no generating call to cut when a generation-safe checkpoint prepared, so no prefix failed to stage`
    case 'corrupt_segment':
      return `no committed checkpoint has a token-store segment number ${f.index} (segments are counted from 0 in path order)`
    case 'duplicate_cut_claim':
      return `rollout ${id} had no restored cut to claim (no durable_prefix of it was committed and restored)`
  }
}

/**
 * The faults of a run that never fired (docs/protocol.md §12.3 `inert_faults`), read from its
 * trace: each kind leaves a recognisable event when it takes effect (a retirement, a delayed
 * request, a flipped byte, a crashed write, a missing-workers report, an acknowledgement error, a
 * duplicate claim).
 */
export function inertFaults(
  config: RunConfig,
  events: readonly TraceEvent[],
): readonly InertFault[] {
  const out: InertFault[] = []
  // The numbers of the crashed writes among every directory.write of the run (from 1).
  const crashedWrites = new Set(
    events
      .filter((e) => e.type === 'directory.write')
      .flatMap((e, i) => (e.outcome !== 'ok' ? [i + 1] : [])),
  )
  for (const fault of config.faults) {
    const id = 'rollout' in fault ? faultRolloutId(fault.rollout, config.rollouts) : undefined
    if ('rollout' in fault && id === undefined) {
      out.push({
        fault,
        reason: `this run has no rollout ${JSON.stringify(fault.rollout)} (it has ${config.rollouts} rollouts)`,
      })
      continue
    }
    const rid = id ?? ''
    let fired: boolean
    switch (fault.kind) {
      case 'straggler':
        fired = events.some(
          (e) =>
            (e.type === 'model.abort_inflight' || e.type === 'generation.cut_ack') &&
            e.outcome === 'ok' &&
            rolloutOf(e) === rid,
        )
        break
      case 'stale_request':
        fired = events.some(
          (e) =>
            e.from === `rollout_${rid}` &&
            e.payload['delayed'] === true &&
            e.to.startsWith(fault.participant),
        )
        break
      case 'corrupt_file':
        fired = events.some(
          (e) =>
            e.type === 'fault.corrupt_file' &&
            String(e.payload['path']).startsWith(`${fault.namespace}/`),
        )
        break
      case 'crash_after_write':
        fired = crashedWrites.has(fault.k)
        break
      case 'missing_worker':
        fired = events.some((e) => e.type === 'model.status' && e.outcome === 'missing_workers')
        break
      case 'unacked_result':
        fired = events.some((e) => e.type === 'agent.acknowledge' && e.outcome !== 'ok')
        break
      case 'duplicate_claim':
        fired = events.some(
          (e) =>
            e.type === 'run.dispatch' &&
            e.outcome === 'duplicate_execution' &&
            rolloutOf(e) === rid,
        )
        break
      case 'constrained_decoding':
        fired = events.some(
          (e) =>
            e.type === 'generation.cut_ack' &&
            e.payload.disposition === 'excluded' &&
            rolloutOf(e) === rid,
        )
        break
      case 'cut_stage_failure':
        fired = events.some(
          (e) =>
            e.type === 'generation.cut_ack' &&
            e.payload.disposition === 'durable_failure' &&
            rolloutOf(e) === rid,
        )
        break
      case 'corrupt_segment':
        fired = events.some(
          (e) =>
            e.type === 'fault.corrupt_file' &&
            String(e.payload['path']).startsWith('token-store/segments/'),
        )
        break
      case 'duplicate_cut_claim':
        fired = events.some(
          (e) =>
            e.type === 'generation.claim_cut' &&
            e.outcome === 'restored_cut_already_owned' &&
            rolloutOf(e) === rid,
        )
        break
    }
    if (!fired) out.push({ fault, reason: `this fault had no effect: ${reasonFor(fault, rid)}` })
  }
  return out
}

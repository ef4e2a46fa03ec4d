import type { Fault } from '@cutover/core/contracts'
import { rolloutIds } from '@cutover/core/contracts'

/** A fault's rollout as the run prints it: an index becomes its id when the fleet size is known. */
function rolloutName(ref: string | number, rollouts: number | undefined): string {
  if (typeof ref === 'string') return ref
  return rollouts !== undefined && ref < rollouts
    ? (rolloutIds(rollouts)[ref] ?? `#${ref}`)
    : `#${ref}`
}

/**
 * What a fault does, in the words of a chip: `straggler r0 +500 ms`, `crash at write 3`,
 * `corrupt resources file 2`, `stale request r0 → policy_model`.
 */
export function faultText(fault: Fault, rollouts?: number): string {
  switch (fault.kind) {
    case 'straggler':
      return `straggler ${rolloutName(fault.rollout, rollouts)} +${fault.extra_ms} ms`
    case 'stale_request':
      return `stale request ${rolloutName(fault.rollout, rollouts)} → ${fault.participant}`
    case 'corrupt_file':
      return `corrupt ${fault.namespace} file ${fault.index}`
    case 'crash_after_write':
      return `crash at write ${fault.k}`
    case 'missing_worker':
      return `missing worker ${fault.worker}`
    case 'unacked_result':
      return `unacknowledged result ${rolloutName(fault.rollout, rollouts)}`
    case 'duplicate_claim':
      return `duplicate claim ${rolloutName(fault.rollout, rollouts)}`
    case 'constrained_decoding':
      return `constrained decoding ${rolloutName(fault.rollout, rollouts)}`
    case 'cut_stage_failure':
      return `cut stage failure ${rolloutName(fault.rollout, rollouts)}`
    case 'corrupt_segment':
      return `corrupt segment ${fault.index}`
    case 'duplicate_cut_claim':
      return `duplicate cut claim ${rolloutName(fault.rollout, rollouts)}`
  }
}

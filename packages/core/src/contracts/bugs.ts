import type { ScenarioName } from './scenarios.ts'
import type { InvariantId } from './views.ts'

/** Teaching-mode bugs (docs/protocol.md §12.3): deliberately broken behaviours a run may select. */
export const BUG_NAMES = [
  'resume-agents-first',
  'aggregate-before-resources',
  'acks-after-prepare',
  'tombstones-skipped-on-restore',
  'relay-applied-twice',
  'call-ids-reused',
  'ack-before-durable',
  'egress-unfenced',
  'overlapping-cut-buffers',
] as const

/**
 * Teaching bugs of the generation-safe cut: a run naming one runs in `cut_mode: "generation-safe"`.
 */
export const CUT_BUG_NAMES = [
  'ack-before-durable',
  'egress-unfenced',
  'overlapping-cut-buffers',
] as const satisfies readonly (typeof BUG_NAMES)[number][]
export type BugName = (typeof BUG_NAMES)[number]

/** One entry of `GET /api/bugs`: what is broken and the invariant that catches it. */
export interface BugInfo {
  readonly name: BugName
  readonly narrative: string
  readonly invariant: InvariantId
  /**
   * The scenarios whose runs show the bug (its invariant fails there), when only some do; absent:
   * any scenario whose checkpoint commits and restores.
   */
  readonly scenarios?: readonly ScenarioName[]
}

import type { WorkplaceExample } from '@cutover/core'
import { parseWorkplaceBase } from '@cutover/core'
import { loadNodeWorkplaceData, nodeDigest } from '@cutover/core/adapters'

let examples: readonly WorkplaceExample[] | undefined

/** The Workplace example tasks (the vendored data), parsed once per process on first use. */
export function workplaceExamples(): readonly WorkplaceExample[] {
  examples ??= parseWorkplaceBase(loadNodeWorkplaceData(), nodeDigest).examples
  return examples
}

import type { CutoverError } from '../contracts/errors.ts'
import { cutoverError } from '../contracts/errors.ts'
import type { Fault, RunConfig } from '../contracts/scenarios.ts'
import { CUT_FAULT_KINDS } from '../contracts/scenarios.ts'
import { CUT_BUG_NAMES } from '../contracts/bugs.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import { presetModelWorkers } from '../scenarios/presets.ts'
import { rolloutIds, rolloutNamingHint } from '../contracts/rolloutIds.ts'

/** The policy-model workers a run with `missing_worker` faults has: 0…n−1. */
export const faultWorkerCount = (config: Pick<RunConfig, 'scenario'>): number =>
  Math.max(2, presetModelWorkers(config.scenario))

/**
 * The rollout id a fault's `rollout` names in this run, or undefined when the run has none such.
 */
export function faultRolloutId(ref: string | number, rollouts: number): string | undefined {
  const ids = rolloutIds(rollouts)
  if (typeof ref === 'number') return ids[ref]
  return ids.includes(ref) ? ref : undefined
}

/**
 * Faults are checked (docs/protocol.md §12.3): a fault naming a rollout or a policy-model worker
 * the run does not have is refused with `invalid_request`, naming the valid form; so is a cut fault
 * in a `whole-request` run. Nothing is changed.
 */
export function checkFaults(
  config: RunConfig,
  faults: readonly Fault[] = config.faults,
): Result<RunConfig, CutoverError> {
  if (
    config.bug !== undefined &&
    (CUT_BUG_NAMES as readonly string[]).includes(config.bug) &&
    config.cut_mode !== 'generation-safe'
  )
    return err(
      cutoverError(
        'invalid_request',
        `cut_mode is whole-request, but bug ${config.bug} breaks generation-safe cuts: leave cut_mode out or set it to "generation-safe"`,
      ),
    )
  // A cut fault needs a cut: refused in a whole-request run, whether given or the preset's.
  for (const [i, f] of config.faults.entries())
    if (
      (CUT_FAULT_KINDS as readonly string[]).includes(f.kind) &&
      config.cut_mode !== 'generation-safe'
    )
      return err(
        cutoverError(
          'invalid_request',
          `cut_mode is whole-request, but faults[${i}] (${f.kind}) is a generation-safe cut fault: set cut_mode to "generation-safe" (--cut-mode generation-safe) or drop the fault`,
        ),
      )
  for (const [i, f] of faults.entries()) {
    const where = `faults[${i}] (${f.kind})`
    if ('rollout' in f && faultRolloutId(f.rollout, config.rollouts) === undefined)
      return err(
        cutoverError(
          'invalid_request',
          `${where} names rollout ${JSON.stringify(f.rollout)}, which this ${config.rollouts}-rollout run does not have: name a rollout by ${rolloutNamingHint(config.rollouts)}`,
        ),
      )
    if (f.kind === 'missing_worker' && f.worker >= faultWorkerCount(config)) {
      const n = faultWorkerCount(config)
      return err(
        cutoverError(
          'invalid_request',
          `${where} names worker ${f.worker}, which this run does not have: its policy model has ${n} workers, 0…${n - 1}`,
        ),
      )
    }
  }
  return ok(config)
}

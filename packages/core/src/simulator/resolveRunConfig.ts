import type { CutMode } from '../contracts/generationCuts.ts'
import { DEFAULT_CUT_MODE } from '../contracts/generationCuts.ts'
import { CUT_BUG_NAMES } from '../contracts/bugs.ts'
import type { RunConfig, RunConfigInput } from '../contracts/scenarios.ts'
import { scenarioInfo } from '../scenarios/presets.ts'

/** Applies scenario defaults: seed "0", 9 rollouts, the preset's deadline and fault schedule. */
export function resolveRunConfig(input: RunConfigInput): RunConfig {
  const preset = scenarioInfo(input.scenario)
  return {
    scenario: input.scenario,
    seed: input.seed === undefined ? '0' : BigInt(input.seed).toString(),
    rollouts: input.rollouts ?? preset.config.rollouts,
    deadline_ms: input.deadline_ms ?? preset.config.deadline_ms,
    faults: input.faults ?? preset.faults,
    ...(input.bug === undefined ? {} : { bug: input.bug }),
    ...cutModeOf(input, preset.config.cut_mode),
  }
}

/**
 * The run's cut mode: the input's, else the preset's; a teaching bug of the cut runs
 * generation-safe. Left out of the config when it is `whole-request` and the preset's too, so such
 * a run's config is what it always was (and a generation-safe scenario run whole-request says so
 * explicitly).
 */
function cutModeOf(input: RunConfigInput, preset: CutMode | undefined): { cut_mode?: CutMode } {
  const bugCuts =
    input.bug !== undefined && (CUT_BUG_NAMES as readonly string[]).includes(input.bug)
  const mode = input.cut_mode ?? (bugCuts ? 'generation-safe' : preset) ?? DEFAULT_CUT_MODE
  return mode === DEFAULT_CUT_MODE && (preset ?? DEFAULT_CUT_MODE) === DEFAULT_CUT_MODE
    ? {}
    : { cut_mode: mode }
}

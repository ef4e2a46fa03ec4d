import type { Result, SimulateOptions, SimulationDeps, SimulationResult } from '@cutover/core'
import type {
  CutoverError,
  RunConfig,
  RunConfigInput,
  ScenarioInfo,
  TraceEvent,
} from '@cutover/core/contracts'

/**
 * The simulator as the run manager drives it: the scenario presets, config resolution, and the
 * step-wise simulation (a generator yielding each trace event and returning the result), so a run
 * can be advanced in batches between which the server keeps serving.
 */
export interface SimulatorPort {
  readonly scenarios: readonly ScenarioInfo[]
  resolve(input: RunConfigInput): Result<RunConfig, CutoverError>
  /** `options.live` receives the views of the run so far while it streams (SimulateOptions). */
  simulate(
    config: RunConfig,
    deps: SimulationDeps,
    options?: Pick<SimulateOptions, 'live'>,
  ): Generator<TraceEvent, SimulationResult, void>
}

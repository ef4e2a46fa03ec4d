import type { ControllerTestOptions } from '../controller/Controller.ts'
import type { CheckpointDirectory } from '../directory/CheckpointDirectory.ts'
import type { WorkplaceExample } from '../environments/workplace/WorkplaceSession.ts'
import type { Digest } from '../ports.ts'
import type { EnvFactory } from './World.ts'

/** Options beyond the run config: the injected ports and test-only breakages. */
export interface SimulatorOptions {
  readonly digest: Digest
  readonly openDirectory: (checkpointId: string) => CheckpointDirectory
  readonly envs: EnvFactory
  readonly workplaceExamples: readonly WorkplaceExample[]
  /** false: run the same rollouts without any checkpoint (the equivalence baseline). */
  readonly checkpoint: boolean
  readonly test?: ControllerTestOptions
  /** Skip trace/view recording (baseline runs only need outcomes). */
  readonly record: boolean
  /**
   * Dispatch only these rollouts (rollouts are independent: a baseline needs only the continued
   * ones).
   */
  readonly only?: ReadonlySet<string>
}

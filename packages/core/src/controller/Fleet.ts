import type { EnvName } from '../contracts/environments.ts'
import type { CutoverError } from '../contracts/errors.ts'
import type { AgentParticipant } from '../protocol/AgentParticipant.ts'
import type { PolicyModel } from '../protocol/PolicyModel.ts'
import type { ResourcesParticipant } from '../protocol/ResourcesParticipant.ts'
import type { Result } from '../result.ts'
import type { VerifySteps } from '../directory/verifySteps.ts'

/** A participant's answer to one control call: at once (in process) or later (over HTTP). */
export type Reply<T> = Result<T, CutoverError> | PromiseLike<Result<T, CutoverError>>

/** The methods `K` of participant class `C`, each answering with a `Reply` of its result. */
type ControlOf<C, K extends keyof C> = {
  readonly [P in K]: C[P] extends (...args: infer A) => Result<infer T, CutoverError>
    ? (...args: A) => Reply<T>
    : never
}

/**
 * A participant in this process may also offer its commit and restore as bounded steps.
 * `commitSteps` writes its namespace one batch of files per step (the controller performs and
 * traces each batch's writes in between); `restoreSteps` reads and verifies it one batch at a time
 * (each a `VerifyProgress` the controller traces), then installs it at once. A remote participant
 * (HTTP) has only `commit` and `restore`: its work is not done on the controller's thread.
 */
type Stepped<C> = (C extends { commit(...args: infer A): Result<infer T, CutoverError> }
  ? { readonly commitSteps?: (...args: A) => Generator<void, Result<T, CutoverError>, void> }
  : never) &
  (C extends { restore(...args: infer A): Result<infer T, CutoverError> }
    ? { readonly restoreSteps?: (...args: A) => VerifySteps<Result<T, CutoverError>> }
    : never)

/**
 * The fleet the controller drives: the control operations docs/protocol.md §3.5 sends to each
 * participant, one method per operation, with the participant's own answer types. The controller
 * owns this interface; the simulator implements it over in-process participants (answering at
 * once, and applying its faults there), and an HTTP controller can implement the same methods as
 * `/ng-control/v1/…` calls answering with promises (the controller waits for them inside its
 * tasks; see `ControllerTask`).
 */
export interface Fleet {
  /** 0 for the original processes, 1.. for each replacement. */
  readonly generation: number
  readonly agent: AgentControl
  readonly model: ModelControl
  readonly resources: { readonly [K in EnvName]: ResourcesControl }
}

/**
 * Agent control routes (docs/protocol.md §3.3): prepare, status, prepare deadline, retire, commit,
 * restore, resume.
 */
export type AgentControl = ControlOf<
  AgentParticipant,
  'prepare' | 'status' | 'prepareDeadline' | 'retire' | 'commit' | 'restore' | 'resume'
> &
  Stepped<AgentParticipant> & {
    /**
     * The agent's instance name (the aggregate manifest records it; restore compares it with the
     * committed set).
     */
    readonly instanceName: string
  }

/**
 * Policy model control routes (docs/protocol.md §3.2, §4.6) and the admission state its last report
 * gave.
 */
export type ModelControl = ControlOf<
  PolicyModel,
  'pause' | 'status' | 'abortInflight' | 'commit' | 'restore' | 'resume'
> &
  Stepped<PolicyModel> &
  ModelSurface

/** What the controller reads of the policy model besides its control routes. */
export interface ModelSurface {
  /** The model's server name (aggregate participant name). */
  readonly serverName: string
  readonly admission: PolicyModel['admission']
  readonly workerCount: number
  /**
   * Worker `k` acknowledges the admission close (multi-worker coordinator); undefined when the
   * worker never answers (it is gone).
   */
  workerAck(worker: number): Reply<void> | undefined
}

/**
 * What a resources restore answers: Cutover's participant also lists the sessions it `activated`;
 * the earlier Gym generation answers `{sessions, source_checkpoint_id}` (docs/real-stack.md).
 */
export interface ResourcesRestoreAnswer {
  readonly sessions: number
  readonly source_checkpoint_id: string
  readonly activated?: readonly string[]
}

/** Resources control routes (docs/protocol.md §3.4): prepare, retire, commit, restore, resume. */
export type ResourcesControl = ControlOf<
  ResourcesParticipant<unknown>,
  'prepare' | 'retire' | 'commit' | 'resume'
> & {
  readonly restore: (
    ...args: Parameters<ResourcesParticipant<unknown>['restore']>
  ) => Reply<ResourcesRestoreAnswer>
} & Stepped<ResourcesParticipant<unknown>> & {
    /** The resources server's name (aggregate participant name). */
    readonly serverName: string
  }

import type { EnvName } from '../contracts/environments.ts'
import type { CutoverError } from '../contracts/errors.ts'
import type { AgentParticipant } from '../protocol/AgentParticipant.ts'
import type { PolicyModel } from '../protocol/PolicyModel.ts'
import type { ResourcesParticipant } from '../protocol/ResourcesParticipant.ts'
import type { Result } from '../result.ts'

/**
 * The fleet the controller drives: the control operations PROTOCOL.md §3.5 sends to each
 * participant, one method per operation, with the participant's own answer types. The controller
 * owns this interface; the simulator implements it over in-process participants (and applies its
 * faults there), and an HTTP controller can implement the same methods as `/ng-control/v1/…` calls.
 *
 * Every method answers synchronously today: the controller is a stepped, deterministic state
 * machine (see `ControllerTask`). Making the answers awaitable is the next step of the
 * cross-process work and changes only how the controller's tasks wait, not this list.
 */
export interface Fleet {
  /** 0 for the original processes, 1.. for each replacement. */
  readonly generation: number
  readonly agent: AgentControl
  readonly model: ModelControl
  readonly resources: { readonly [K in EnvName]: ResourcesControl }
}

/** Agent control routes (PROTOCOL.md §3.3): prepare, status, prepare deadline, retire, commit, restore, resume. */
export type AgentControl = Pick<AgentParticipant, 'instanceName' | 'prepare' | 'status' | 'prepareDeadline' | 'retire' | 'commit' | 'restore' | 'resume' | 'discardContinuation'>

/** Policy model control routes (PROTOCOL.md §3.2, §4.6) and the admission state its status reports. */
export interface ModelControl extends Pick<PolicyModel, 'serverName' | 'pause' | 'status' | 'abortInflight' | 'commit' | 'restore' | 'resume'> {
  readonly admission: PolicyModel['admission']
  readonly workerCount: number
  /**
   * Worker `k` acknowledges the admission close (multi-worker coordinator); undefined when the
   * worker never answers (it is gone).
   */
  workerAck(worker: number): Result<void, CutoverError> | undefined
}

/** Resources control routes (PROTOCOL.md §3.4): prepare, retire, commit, restore, resume. */
export type ResourcesControl = Pick<ResourcesParticipant<unknown>, 'serverName' | 'prepare' | 'retire' | 'commit' | 'restore' | 'resume'>

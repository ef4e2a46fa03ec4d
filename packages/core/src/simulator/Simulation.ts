import type { CheckpointDirectory } from '../directory/CheckpointDirectory.ts'
import type { WorkplaceData } from '../environments/workplace/WorkplaceData.ts'
import type { Digest } from '../ports.ts'
import type { InertFault, RunConfig } from '../contracts/scenarios.ts'
import type { TraceEvent } from '../contracts/trace.ts'
import type {
  InvariantFailure,
  InvariantMap,
  LineageView,
  ParticipantView,
  SessionDetailView,
  SessionRow,
  TablesView,
} from '../contracts/views.ts'

/**
 * The public face of the simulator, as the API and the CLI use it. The implementation lives beside
 * this file; this interface is the agreement between them.
 */

/** Ports a simulation needs; the edges provide real ones, tests in-memory ones. */
export interface SimulationDeps {
  readonly digest: Digest
  /** Opens (creating it if needed) the directory a checkpoint with this id is committed into. */
  openDirectory(checkpointId: string): CheckpointDirectory
  /**
   * The Workplace Assistant data (a port: core never reads files; `loadNodeWorkplaceData()` from
   * `@cutover/core/adapters` supplies it). Required when a run has a workplace rollout (3+
   * rollouts).
   */
  readonly workplace?: WorkplaceData
}

/** A checkpoint directory a run produced. */
export interface SimulatedCheckpoint {
  readonly checkpoint_id: string
  /** `CheckpointDirectory.location` of its directory. */
  readonly location: string
  /** True when a fault damaged it on purpose (corrupt_file, an abandoned crashed commit). */
  readonly damaged: boolean
}

/** Everything a finished (or partial) run can answer, at any step 0..events.length. */
export interface SimulationResult {
  readonly config: RunConfig
  readonly events: readonly TraceEvent[]
  readonly outcome: 'completed' | 'aborted'
  readonly invariants: InvariantMap
  readonly failures: readonly InvariantFailure[]
  readonly checkpoints: readonly SimulatedCheckpoint[]
  /** Faults of the schedule that never fired, each with the reason (docs/protocol.md §12.3). */
  readonly inert_faults: readonly InertFault[]
  /** Participant cards after event `step` (step 0 = before the first event). */
  participantsAt(step: number): readonly ParticipantView[]
  /** Session rows after event `step`. */
  sessionsAt(step: number): readonly SessionRow[]
  /** Invariant statuses as known after event `step`. */
  invariantsAt(step: number): {
    readonly invariants: InvariantMap
    readonly failures: readonly InvariantFailure[]
  }
  /** One session (`r004.a1`) at `step` beside its prepare snapshot; undefined if unknown. */
  sessionDetail(key: string, step: number): SessionDetailView | undefined
  /** A Workplace session's tables at `step` with a diff against its prepare snapshot. */
  tables(key: string, step: number): TablesView | undefined
  /** Rollout → attempts → model calls, as known after `step`. */
  lineage(step: number): LineageView
}

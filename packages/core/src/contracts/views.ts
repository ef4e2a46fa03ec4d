import type { EnvName } from './environments.ts'
import type { JsonValue } from '../json.ts'
import type { BugName } from './bugs.ts'
import type {
  CutMode,
  GenerationCutRecord,
  GenerationCutView,
  PrefixDelivery,
  TokenSegmentView,
} from './generationCuts.ts'
import type { Fault, InertFault, ScenarioName } from './scenarios.ts'
import type { RecordingView } from './recording.ts'
import type { ParticipantId, TraceEvent } from './trace.ts'

/** Invariant ids (docs/protocol.md §12.4). */
export const INVARIANT_IDS = [
  'manifest-last',
  'fenced-attempt-silent',
  'revision-monotonic',
  'restore-all-or-nothing',
  'resume-order',
  'relay-once',
  'call-id-unique',
  'acks-before-prepare',
  // generation-safe cuts (docs/protocol.md §11)
  'token-partition',
  'durable-before-ack',
  'egress-fenced',
  'equivalence',
] as const
export type InvariantId = (typeof INVARIANT_IDS)[number]
export type InvariantStatus = 'pass' | 'fail'
export type InvariantMap = { readonly [K in InvariantId]: InvariantStatus }

/** A failing invariant: where it first failed and why. */
export interface InvariantFailure {
  readonly id: InvariantId
  readonly step: number
  readonly message: string
}

/**
 * `damaged`: a stored run whose run.json failed its digest (or did not parse); it is listed with
 * the reason in `error`, never served as if whole.
 */
export type RunStatus = 'running' | 'complete' | 'failed' | 'damaged'

/** Where a run's trace comes from. */
export const RUN_KINDS = ['simulated', 'fleet', 'directory', 'recorded'] as const
export type RunKind = (typeof RUN_KINDS)[number]

/**
 * The `scenario` of a recorded run (docs/recording.md): no preset made it, a real controller did.
 */
export const RECORDED_SCENARIO = 'recorded'

/** A run as the API returns it (docs/http-api.md). */
export interface RunView {
  readonly id: string
  /**
   * How the run was made (docs/fleet.md, docs/recording.md): simulated in process, recorded from
   * participant processes (`cutover fleet`), a checkpoint directory opened read-only, or recorded
   * from a real controller's exchanges (`cutover record`, `cutover import`).
   */
  readonly kind: RunKind
  /** The preset the run was made from; `recorded` for a recorded run. */
  readonly scenario: ScenarioName | typeof RECORDED_SCENARIO
  readonly seed: string
  readonly rollouts: number
  readonly deadline_ms: number
  readonly faults: readonly Fault[]
  /** The run's teaching-mode bug, when it has one. */
  readonly bug?: BugName
  /**
   * How prepare treats a generation still running at the deadline (docs/protocol.md §11); absent
   * means `whole-request`.
   */
  readonly cut_mode?: CutMode
  /** Faults of the schedule that never fired, with the reason (empty while running). */
  readonly inert_faults: readonly InertFault[]
  readonly status: RunStatus
  readonly created_at: string
  readonly events: number
  readonly outcome: 'completed' | 'aborted' | null
  /** Published, valid checkpoint directories, relative to the data directory. */
  readonly checkpoints: readonly string[]
  /** Directories a fault broke on purpose. */
  readonly damaged: readonly string[]
  readonly invariants: InvariantMap
  readonly failures: readonly InvariantFailure[]
  readonly error?: string
  /** While a `running` run waits for a simulation slot: its place in the queue (1 = next). */
  readonly queue_position?: number
  /**
   * A fleet run's participant processes (docs/fleet.md): the originals and their replacements.
   */
  readonly processes?: readonly FleetProcessView[]
  /** A recorded run's recording: its proxies, problems, directories and black-box checks. */
  readonly recording?: RecordingView
  /** The run this one was made from ("Run with this fault", a chip's ×): its id. */
  readonly parent?: string
}

/** One participant OS process of a fleet run. */
export interface FleetProcessView {
  readonly participant: string
  readonly name: string
  readonly pid: number
  readonly port: number
  readonly role: 'original' | 'replacement'
}

/** A participant card at one step. */
export interface ParticipantView {
  readonly id: ParticipantId
  readonly kind:
    | 'controller'
    | 'policy_model'
    | 'model_worker'
    | 'agent'
    | 'resources'
    | 'generation_worker'
    | 'token_store'
    | 'directory'
  /** Control-fence phase (docs/protocol.md §4.1), or `n/a`. */
  readonly phase: string
  /** Admission state: accepting, draining, paused, restore_failed_paused… */
  readonly admission: string
  readonly inflight: number
  /** Fenced attempts as `<rollout_id>.a<attempt>`. */
  readonly tombstones: readonly string[]
  readonly manifest_digest: string | null
  readonly checkpoint_id: string | null
  /** A fleet run's card: the OS process that sent this participant's latest message so far. */
  readonly pid?: number
  /**
   * A recorded run's card: what the participant's latest answer said about its readiness (`ready
   * to commit`, `4 running, 0 parked`, `1/1 workers acknowledged`).
   */
  readonly readiness?: string
}

export type SessionState =
  'unbound' | 'bound' | 'exported' | 'retired' | 'terminal' | 'uncertain' | 'restored'

/** One row of the Sessions tab. */
export interface SessionRow {
  /** `<rollout_id>.a<attempt>` (docs/http-api.md). */
  readonly key: string
  readonly rollout_id: string
  readonly attempt: number
  readonly environment: EnvName
  readonly state: SessionState
  readonly revision: number | null
  readonly session_id: string | null
  /** One line a person reads: `[8, A] = 19 vs 8`, `count 6`, `3 rows changed`. */
  readonly summary: string
}

/**
 * A participant card in the step view: `tombstones` holds the first few of the participant's fenced
 * attempts in sorted order (up to 9,572 at 10,000 rollouts, ≈ 260 KB of every step view otherwise),
 * `tombstone_count` how many there are.
 */
export type StepParticipantView = ParticipantView & { readonly tombstone_count: number }

/**
 * `GET /api/runs/:id/steps/:n`. The session rows are not in it (18,766 rows, ≈ 3.3 MB of JSON at
 * 10,000 rollouts, at every step): the Sessions and Tables tabs ask `GET /api/runs/:id/sessions`.
 */
export interface StepView {
  readonly step: number
  readonly total: number
  readonly event: TraceEvent | null
  readonly phase: TraceEvent['phase'] | null
  readonly participants: readonly StepParticipantView[]
  readonly invariants: InvariantMap
  readonly failures: readonly InvariantFailure[]
  /** Mermaid source of the diagram window around this step, the step highlighted (for export). */
  readonly mermaid: string
  /** The first and last step the diagram window covers. */
  readonly window: { readonly from: number; readonly to: number }
  /**
   * The same diagram for a client that draws its own highlight: no parsing of mermaid text needed.
   */
  readonly diagram: {
    /** The mermaid source without the highlight box and marker. */
    readonly source: string
    /** The index of this step's message among the drawn messages, or -1 (step 0, or not drawn). */
    readonly highlight: number
    /**
     * The step of each drawn message, in drawing order (messages of folded phases are not drawn).
     */
    readonly steps: readonly number[]
  }
}

/**
 * `GET /api/runs/:id/sessions?step=n`: every session row at a step of a run whose first `total`
 * events are known.
 */
export interface SessionsView {
  readonly step: number
  readonly total: number
  readonly sessions: readonly SessionRow[]
}

/**
 * `GET /api/runs/:id/sessions?step=n&offset=&limit=&sort=&dir=&q=&session=&environment=`: a window
 * of the session rows at a step, sorted and filtered where the run lives (`sortSessions`). `count`
 * is the rows at the step, `matched` those of `environment` (when given) the filter keeps;
 * `sessions` are matched rows `offset` to `offset + limit` in that order. `selected` answers
 * `session=`: whether that session exists at the step, and its index among the matched rows (null
 * when the filter hides it).
 */
export interface SessionsWindow {
  readonly step: number
  readonly total: number
  readonly count: number
  readonly matched: number
  readonly offset: number
  readonly sessions: readonly SessionRow[]
  readonly selected?: {
    readonly key: string
    readonly exists: boolean
    readonly index: number | null
  }
}

/**
 * `GET /api/runs/:id/events?from=&limit=` (and `rollout`, `type`, `q` filters): a range of a run's
 * events, those after step `from`, of a run whose first `total` events are known; `next` is the
 * `from` that continues the range, null when no event after it matches (at the edge it was asked).
 */
export interface EventsRange {
  readonly from: number
  readonly total: number
  readonly events: readonly TraceEvent[]
  readonly next: number | null
}

/** `GET /api/runs/:id/sessions/:session?step=n`. */
export interface SessionDetailView {
  readonly step: number
  readonly session: SessionRow
  /** The environment state at this step (null when the session holds none here). */
  readonly state: JsonValue
  /** The state captured at prepare (null before prepare or when the session was not exported). */
  readonly prepare: JsonValue
  /**
   * The generation cuts of this rollout's model calls up to this step (generation-safe runs; empty
   * otherwise): prefix and continuation lengths and digests of each cut call.
   */
  readonly generation_cuts?: readonly GenerationCutView[]
}

/** One table of a Workplace session with its diff against the prepare snapshot. */
export interface TableView {
  readonly name: string
  readonly columns: readonly string[]
  readonly rows: readonly {
    readonly label: number
    readonly cells: readonly JsonValue[]
    readonly status: 'same' | 'added' | 'changed'
    /** Column indices whose cells differ from the prepare snapshot's row with this label. */
    readonly changed: readonly number[]
    /** A changed row's cells in the baseline (by this table's columns; null for a new column). */
    readonly was?: readonly JsonValue[]
  }[]
  readonly removed: readonly { readonly label: number; readonly cells: readonly JsonValue[] }[]
}

/** `GET /api/runs/:id/sessions/:session/tables?step=n`. */
export interface TablesView {
  readonly step: number
  readonly session: string
  readonly baseline: 'prepare' | 'base'
  readonly tables: readonly TableView[]
  readonly summary: { readonly added: number; readonly removed: number; readonly changed: number }
  /**
   * Per table, per row label: the step of the request that last changed that added, changed or
   * removed row (absent for a row no request changed, e.g. one a restore brought back).
   */
  readonly changed_at?: RowChangeSteps
}

/** `{ [table]: { [row label]: step } }`: where each changed row of a `TablesView` was changed. */
export type RowChangeSteps = { readonly [table: string]: { readonly [label: string]: number } }

/** `GET /api/runs/:id/lineage`. */
export interface LineageView {
  readonly rollouts: readonly {
    readonly rollout_id: string
    readonly environment: EnvName
    readonly attempts: readonly {
      readonly attempt: number
      readonly status: 'running' | 'completed' | 'continued' | 'retired' | 'fenced'
      readonly calls: readonly {
        readonly model_call_id: string
        readonly parent_call_id: string | null
        /** True on the first call of N+1 whose parent is N's last committed call. */
        readonly relay: boolean
        readonly step: number
        /** The ledger's `generation_cut` record of this call of attempt N ("cut at token k"). */
        readonly generation_cut?: GenerationCutRecord
        /**
         * On the call of N+1 that continues a cut call: which call, from which token, how the
         * prefix arrived.
         */
        readonly continues_cut?: {
          readonly model_call_id: string
          readonly prefix_token_count: number
          readonly prefix_delivery: PrefixDelivery
        }
      }[]
    }[]
  }[]
}

/** One file of a checkpoint directory with its verification status. */
export interface CheckpointFileView {
  readonly path: string
  readonly bytes: number
  readonly sha256: string
  readonly status: 'ok' | 'digest_mismatch' | 'unlisted' | 'missing'
}

/** `GET /api/runs/:id/checkpoints`. */
export interface CheckpointView {
  /** The directory name, used in file URLs. */
  readonly cid: string
  readonly checkpoint_id: string
  readonly path: string
  readonly valid: boolean
  readonly damaged: boolean
  readonly problems: readonly {
    readonly code: string
    readonly path: string | null
    readonly message: string
  }[]
  readonly files: readonly CheckpointFileView[]
  /**
   * The token-store segments (`token-store/segments/…`) the token-store manifest lists, with digest
   * status.
   */
  readonly segments?: readonly TokenSegmentView[]
}

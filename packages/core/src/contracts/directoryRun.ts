import type { JsonValue } from '../json.ts'
import type { GenerationCutView, TokenSegmentView } from './generationCuts.ts'
import type { LineageView, SessionRow } from './views.ts'

/** One verification problem of `cutover verify` (docs/cli.md), as the API returns it. */
export interface DirectoryProblemView {
  readonly code: string
  readonly path: string | null
  readonly message: string
}

/** One file of an inspected directory: what is on disk, or what a manifest names but is missing. */
export interface DirectoryFileView {
  readonly path: string
  readonly kind: 'file' | 'symlink' | 'missing'
  readonly bytes: number
  /** SHA-256 of the bytes on disk ('' for a symlink or a missing file). */
  readonly sha256: string
  /** The problem codes verification reported for this path (empty: the file checks out). */
  readonly problems: readonly string[]
}

/**
 * One step of the directory's own timeline: the files in the order the commit protocol writes
 * them (each namespace's files, then its manifest; agent → model ledger → resources → aggregate →
 * token store → marker). `order` is null for a file whose place the manifests do not tell.
 */
export interface DirectoryTimelineEntry {
  readonly order: number | null
  readonly path: string
  /**
   * What wrote it: `agent`, `model-ledger/<server>`, `resources/<server>`, `aggregate`,
   * `token-store`, `marker`, or `unknown`.
   */
  readonly writer: string
  readonly note: string
}

/** A session's environment state as read from its snapshot file. */
export type DirectorySessionDetail =
  | {
      readonly kind: 'blackjack'
      readonly player: readonly string[]
      readonly dealer: readonly string[]
      readonly player_value: number
      /** The Mersenne Twister position: the index word of the CPython `getstate()` tuple. */
      readonly rng_position: number
    }
  /**
   * The count: a number, or its exact decimal text beyond 2^53 (Python ints have no size limit).
   */
  | { readonly kind: 'counter'; readonly counter: number | string }
  | {
      readonly kind: 'workplace'
      /** `delta` against the base tables, or `full` pandas `orient="split"` tables. */
      readonly form: 'delta' | 'full'
      readonly added: number
      readonly removed: number
      readonly changed: number
    }
  | { readonly kind: 'unreadable'; readonly message: string }

/** One resources snapshot of the directory, as a session. */
export interface DirectorySessionView {
  readonly row: SessionRow
  /** The resources server that wrote it (`blackjack`, `counter`, `workplace`). */
  readonly server: string
  /** The snapshot file, relative to the directory. */
  readonly file: string
  /** False when verification reported a problem for that file. */
  readonly verified: boolean
  readonly detail: DirectorySessionDetail
  /** The snapshot's `state` as written. */
  readonly state: JsonValue
  /**
   * The first verification problem of its file (its code and message), when it has one: a damaged
   * or missing snapshot is still listed, marked with it.
   */
  readonly problem?: DirectoryProblemView
}

/** One agent boundary record (one per execution). */
export interface DirectoryBoundaryView {
  readonly key: string
  readonly rollout_id: string
  readonly attempt: number
  readonly boundary_index: number
  readonly turn_index: number
  readonly last_committed_model_call_id: string | null
  readonly resource_state_revisions: { readonly [server: string]: number }
  readonly output_items: number
  readonly file: string
  readonly verified: boolean
  /**
   * The first verification problem of its file: a damaged or missing record is still listed
   * (boundary and turn -1, nothing decoded), marked with it.
   */
  readonly problem?: DirectoryProblemView
}

/** The lineage from the model ledger, with what the ledger manifest adds to it. */
export interface DirectoryLineageView extends LineageView {
  /** Fenced attempts as `<rollout_id>.a<attempt>`, from every ledger manifest. */
  readonly tombstones: readonly string[]
  /**
   * Continuation roots: each execution's last committed call, which N+1's first call relays from.
   */
  readonly roots: readonly { readonly key: string; readonly model_call_id: string }[]
}

/**
 * A checkpoint directory opened read-only as a run (`POST /api/directories`, `cutover inspect`):
 * docs/http-api.md. It has no trace: `events` is 0 and there is no diagram step list.
 */
export interface DirectoryRunView {
  readonly id: string
  readonly kind: 'directory'
  /** Absolute path of the directory on the server's machine. */
  readonly path: string
  readonly status: 'complete'
  readonly created_at: string
  readonly events: 0
  /**
   * The checkpoint id the marker, aggregate or a namespace manifest names (null when none does).
   */
  readonly checkpoint_id: string | null
  readonly valid: boolean
  /**
   * Whose controller published it (docs/real-stack.md): `nemo-rl` (only the aggregate manifest) or
   * `cutover`.
   */
  readonly publisher: 'nemo-rl' | 'cutover'
  readonly problems: readonly DirectoryProblemView[]
  readonly files: readonly DirectoryFileView[]
  readonly timeline: readonly DirectoryTimelineEntry[]
  readonly sessions: readonly DirectorySessionView[]
  readonly boundaries: readonly DirectoryBoundaryView[]
  readonly lineage: DirectoryLineageView
  /**
   * Generation-safe checkpoints: the token-store segments the token-store manifest lists, with
   * digest status.
   */
  readonly segments?: readonly TokenSegmentView[]
  /**
   * Generation-safe checkpoints: the ledgers' `generation_cut` records ("cut at token k") as the
   * Sessions detail shows a cut; a directory has no trace, so steps are 0 and nothing is continued
   * yet.
   */
  readonly generation_cuts?: readonly GenerationCutView[]
}

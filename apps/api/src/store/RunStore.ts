import type { CheckpointDirectory } from '@cutover/core'
import type { Result } from '@cutover/core'
import type { CutoverError, RunView, TraceEvent } from '@cutover/core/contracts'

/**
 * A run folder that could not be read back, with why (logged and skipped, never served half-read).
 */
export interface UnreadableRun {
  readonly folder: string
  readonly reason: string
}

/**
 * A run folder whose run.json fails its digest or its schema: listed as `damaged` (status and
 * `error`), with whatever of its fields still check, never served as if whole.
 */
export interface DamagedRun {
  readonly folder: string
  readonly view: RunView
}

/**
 * Where runs live: the data directory (`CUTOVER_DATA_DIR` or `.cutover/`), one folder per run,
 * `runs/<id>/run.json` (the RunView), `runs/<id>/trace.json` once complete, and the run's
 * checkpoint directories under `runs/<id>/checkpoints/<checkpoint_id>/`; a recorded run holds its
 * recording, `runs/<id>/exchanges.jsonl`, instead of a trace.
 */
export interface RunStore {
  /** Absolute path of the data directory. */
  readonly root: string
  listRuns(): {
    readonly runs: readonly RunView[]
    /** Folders that are not runs at all (no run.json, a name that is not a run id). */
    readonly unreadable: readonly UnreadableRun[]
    readonly damaged: readonly DamagedRun[]
  }
  /** One run's `run.json` read back (undefined when absent, unreadable or failing its digest). */
  readRun(runId: string): RunView | undefined
  /** Writes `run.json` atomically, sealed with the SHA-256 of its content (`sha256`). */
  writeRun(view: RunView): void
  /**
   * Writes `trace.json` atomically (once the run is complete): `json` is its text (`traceJson`).
   */
  writeTrace(runId: string, json: string): void
  /** True when `trace.json` exists (cheap: startup checks every run without parsing traces). */
  hasTrace(runId: string): boolean
  /** The stored trace, or undefined when there is none or it does not parse. */
  readTrace(runId: string): readonly TraceEvent[] | undefined
  /**
   * Absolute path of a recorded run's recording (`runs/<id>/exchanges.jsonl`, docs/recording.md).
   */
  recordingPath(runId: string): string
  /** Removes the run's folder and everything in it. */
  removeRun(runId: string): void
  /** Absolute path of one checkpoint directory of a run. */
  checkpointPath(runId: string, checkpointId: string): string
  /**
   * A path as the API names it: relative to the data directory, `/`-separated, for paths inside
   * it (`runs/<id>/checkpoints/<cid>`); only the last segment of any other absolute path.
   */
  relativePath(path: string): string
  /** Opens (creating it) the real directory a checkpoint of this run is committed into. */
  openCheckpoint(runId: string, checkpointId: string): CheckpointDirectory
  /** Names of the run's checkpoint directories on disk, sorted. */
  listCheckpoints(runId: string): readonly string[]
  /**
   * One file of a checkpoint directory. `relativePath` is `/`-separated; a path that leaves the
   * directory or passes through a symlink is `path_escape`, an absent one `file_not_found`.
   */
  readCheckpointFile(
    runId: string,
    checkpointId: string,
    relativePath: string,
  ): Result<Uint8Array, CutoverError>
  /** Opens an existing checkpoint directory to read it; undefined when absent. */
  readCheckpoint(runId: string, checkpointId: string): CheckpointDirectory | undefined
}

/**
 * Recorded runs (docs/recording.md): a checkpoint cycle seen from outside, one HTTP exchange per
 * line of a recording, turned into a run of kind `recorded`. These are the shapes the API and the
 * web share: the checks a black box allows, what a recorded run says about its recording, and the
 * invariants of a simulated run that no recording can check.
 */

/** The checks a recording allows (the black box: only what crossed the wire and the directory). */
export const RECORDED_CHECK_IDS = [
  'control-accepted',
  'error-envelope',
  'acks-before-prepare',
  'prepared-before-commit',
  'committed-before-manifest',
  'published-after-commit',
  'commit-verifies',
  'manifest-participants',
  'resume-after-restore',
  'refused-restore-resumes-none',
  'fenced-attempt-silent',
  'relay-once',
] as const
export type RecordedCheckId = (typeof RECORDED_CHECK_IDS)[number]

/**
 * `pass`, `fail`, or `not_observed`: the recording holds nothing the check applies to (no commit,
 * no restore, no directory), or the order it needs cannot be told from it.
 */
export type RecordedCheckStatus = 'pass' | 'fail' | 'not_observed'

/** One check over a recording: where it first failed (the step and the exchange) and why. */
export interface RecordedCheck {
  readonly id: RecordedCheckId
  readonly status: RecordedCheckStatus
  /** The step (1-based event) of the exchange that breaks the check; null unless it fails. */
  readonly step: number | null
  /** The exchange that breaks it: its line in the recording (1-based); null unless it fails. */
  readonly exchange: number | null
  /** What was found: the failure, or what the pass or not_observed rests on. */
  readonly message: string
}

/** What each check holds, one line as the Invariants tab shows it. */
export const RECORDED_CHECK_TEXT: { readonly [C in RecordedCheckId]: string } = {
  'control-accepted':
    'Every control call the controller made was accepted (2xx). Not a safety property: the first refusal is where the cycle failed.',
  'error-envelope':
    'Every refused control call answers the protocol’s envelope {"error": {"code", "message" or "detail"}}.',
  'acks-before-prepare':
    'Every result the agent had completed was acknowledged with its receipt before the agent was asked to prepare.',
  'prepared-before-commit':
    'Every participant answered its prepare (2xx) before the controller sent any commit of that checkpoint.',
  'committed-before-manifest':
    'Every participant answered its commit (2xx) before the aggregate manifest appeared in the checkpoint directory.',
  'published-after-commit':
    'Once every participant committed a checkpoint, its aggregate manifest was published.',
  'commit-verifies':
    'What the participants committed into the checkpoint directory verifies (their manifests, schemas and digests).',
  'manifest-participants':
    'The aggregate manifest names the participants that answered discovery (participant_id = the name in capabilities).',
  'resume-after-restore':
    'No participant is resumed before every participant’s restore of that checkpoint succeeded.',
  'refused-restore-resumes-none':
    'A refused restore leaves no participant resumed into that checkpoint.',
  'fenced-attempt-silent':
    'No data-plane call of an attempt is answered 2xx after that attempt was fenced (tombstoned, retired or replaced by a restore).',
  'relay-once':
    'The restored parent call (the model restore’s relays) is relayed at most once per rollout, from the model’s call ids.',
}

/**
 * The simulated run's invariant each check stands for, where there is one
 * (docs/protocol.md §12.4).
 */
export const RECORDED_CHECK_INVARIANT: { readonly [C in RecordedCheckId]?: string } = {
  'acks-before-prepare': 'acks-before-prepare',
  'committed-before-manifest': 'manifest-last',
  'resume-after-restore': 'resume-order',
  'refused-restore-resumes-none': 'restore-all-or-nothing',
  'fenced-attempt-silent': 'fenced-attempt-silent',
  'relay-once': 'relay-once',
}

/** The simulated run's invariants no recording can check, and why (docs/recording.md). */
export const UNCHECKABLE_INVARIANTS: readonly { readonly id: string; readonly reason: string }[] = [
  {
    id: 'revision-monotonic',
    reason:
      'session state revisions live inside the resources servers; only some answers carry one, so a revision going backwards between two of them cannot be told from a gap',
  },
  {
    id: 'call-id-unique',
    reason:
      'the wire shows only the call ids of model calls that were answered; an id reused by an aborted or unanswered call never crosses it',
  },
  {
    id: 'token-partition',
    reason:
      'token prefixes and continuations live in the model and the token store; the wire carries counts at most, never the tokens',
  },
  {
    id: 'durable-before-ack',
    reason:
      'the durability of a staged prefix and the worker’s acknowledgement happen inside the model process',
  },
  {
    id: 'egress-fenced',
    reason:
      'a response held back by the model’s egress fence never reaches the wire, so its absence cannot be told from a slow generation',
  },
  {
    id: 'equivalence',
    reason:
      'it compares each continued rollout with the same rollout run without a checkpoint, a run only the simulator can make',
  },
]

/** A checkpoint directory a recording names (in its commit and restore requests). */
export interface RecordedDirectoryView {
  readonly checkpoint_id: string
  /** The directory as the server resolved it (absolute). */
  readonly path: string
  /** The directory is there now. */
  readonly exists: boolean
  /** It holds the aggregate manifest (`nemo_gym_checkpoint_manifest.json`). */
  readonly published: boolean
}

/** One recording proxy: its participant name, its URL and the server it forwards to. */
export interface RecordingProxyView {
  readonly name: string
  readonly url: string
  readonly upstream: string
}

/** A line of a recording that could not be read, and why. */
export interface RecordingProblem {
  readonly line: number
  readonly message: string
}

/** What a recorded run says about its recording (`RunView.recording`). */
export interface RecordingView {
  /** `--run-name`, or the imported file's name. */
  readonly name: string | null
  /** Made by `cutover record` (its proxies) or `cutover import`. */
  readonly source: 'record' | 'import'
  /** The recording's exchanges, as read so far. */
  readonly exchanges: number
  /** The participant names seen in it, in order of first appearance. */
  readonly participants: readonly string[]
  readonly proxies: readonly RecordingProxyView[]
  /** The `cutover record` process (absent for an import). */
  readonly recorder_pid?: number
  /**
   * Where a relative `checkpoint_dir` of a request resolves: the recorder's working directory, or
   * the imported file's folder.
   */
  readonly root: string
  /** Checkpoint directories named to `cutover import --checkpoint-dirs`, besides the requests'. */
  readonly checkpoint_dirs: readonly string[]
  /** Lines that could not be read: a truncated last line, a line the recorder never finished. */
  readonly problems: readonly RecordingProblem[]
  readonly directories: readonly RecordedDirectoryView[]
  readonly checks: readonly RecordedCheck[]
}

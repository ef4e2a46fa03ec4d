import { readFileSync, writeFileSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import type { JsonValue, Result } from '@cutover/core'
import { err, ok, parseRecording } from '@cutover/core'
import type { RecordingProblem, RunView } from '@cutover/core/contracts'
import { INVARIANT_IDS, RECORDED_SCENARIO } from '@cutover/core/contracts'
import type { RunStore } from '../store/RunStore.ts'
import { createRedactor } from './createRedactor.ts'
import { RecordingTail } from './RecordingTail.ts'
import { recordedRunView, recordingFacts } from './recordedRunView.ts'

/** What `cutover import` needs. */
export interface ImportSetup {
  /** The recording (absolute path). */
  readonly file: string
  readonly runId: string
  readonly store: RunStore
  readonly createdAt: string
  /** Checkpoint directories to open besides those the requests name (relative to `cwd`). */
  readonly checkpointDirs: readonly string[]
  readonly cwd: string
  /** Where a relative `checkpoint_dir` resolves (default: the file's folder). */
  readonly root?: string
  /** Secrets no line may keep (the control token), besides what the redactor recognises. */
  readonly secrets: readonly (string | undefined)[]
}

/** Why an import was refused: the file could not be read, or a line is not an exchange. */
export type ImportRefusal =
  | { readonly kind: 'unreadable'; readonly message: string }
  | ({ readonly kind: 'malformed' } & RecordingProblem)

/**
 * Turns a recording made elsewhere into a stored run of kind `recorded` (docs/recording.md). Every
 * line must be an exchange (else nothing is stored and the refusal names the first bad line), save
 * a last line cut short mid-line, which is reported on the run (`recording.problems`) while every
 * line before it is kept. Lines are stored with secrets removed; a relative `checkpoint_dir`
 * resolves against the file's folder.
 */
export function importRecording(setup: ImportSetup): Result<RunView, ImportRefusal> {
  let text: string
  try {
    text = readFileSync(setup.file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return err({
      kind: 'unreadable',
      message: `cannot read ${setup.file}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    })
  }
  const parsed = parseRecording(text)
  const bad = parsed.malformed[0]
  if (bad !== undefined) return err({ kind: 'malformed', ...bad })
  if (parsed.entries.length === 0)
    return err({
      kind: 'malformed',
      line: parsed.truncated?.line ?? 1,
      message: parsed.truncated?.message ?? `${setup.file} holds no exchange`,
    })
  const redactor = createRedactor(setup.secrets)
  const base: RunView = {
    id: setup.runId,
    kind: 'recorded',
    scenario: RECORDED_SCENARIO,
    seed: '0',
    rollouts: 0,
    deadline_ms: 0,
    faults: [],
    inert_faults: [],
    status: 'running',
    created_at: setup.createdAt,
    events: 0,
    outcome: null,
    checkpoints: [],
    damaged: [],
    invariants: Object.fromEntries(
      INVARIANT_IDS.map((id) => [id, 'pass']),
    ) as RunView['invariants'],
    failures: [],
    recording: {
      name: `${basename(dirname(setup.file))}/${basename(setup.file)}`,
      source: 'import',
      exchanges: 0,
      participants: [],
      proxies: [],
      root: setup.root ?? dirname(setup.file),
      checkpoint_dirs: setup.checkpointDirs.map((d) => resolve(setup.cwd, d)),
      problems: [],
      directories: [],
      checks: [],
    },
  }
  setup.store.writeRun(base)
  const path = setup.store.recordingPath(setup.runId)
  // Each exchange at its own line number (blank lines kept blank), so the run names the lines of
  // the file that was imported.
  const lines: string[] = []
  for (const e of parsed.entries) {
    while (lines.length < e.line - 1) lines.push('')
    lines.push(JSON.stringify(redactor.value(e.exchange as unknown as JsonValue)))
  }
  writeFileSync(path, `${lines.join('\n')}\n`, { mode: 0o600 })
  const tail = new RecordingTail(path)
  tail.finish()
  const recording = base.recording as NonNullable<RunView['recording']>
  const view = recordedRunView(base, tail, recordingFacts(tail.events, recording), true)
  // The truncated last line is not in the stored copy: the run reports it.
  const finished: RunView = {
    ...view,
    recording: {
      ...(view.recording as NonNullable<RunView['recording']>),
      problems: parsed.truncated === null ? [] : [parsed.truncated],
    },
  }
  setup.store.writeRun(finished)
  return ok(finished)
}

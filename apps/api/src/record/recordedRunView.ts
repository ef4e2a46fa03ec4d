import { readFileSync } from 'node:fs'
import { basename, isAbsolute, join, resolve } from 'node:path'
import type { RecordedDirectoryFacts } from '@cutover/core'
import {
  AGGREGATE_MANIFEST_PATH,
  namedDirectories,
  recordedChecks,
  recordedInvariants,
} from '@cutover/core'
import type { RecordingView, RunView, TraceEvent } from '@cutover/core/contracts'
import { directoryFacts } from './directoryFacts.ts'
import type { RecordingTail } from './RecordingTail.ts'

/** The checkpoint id a directory's aggregate manifest names, else the directory's name. */
function checkpointIdOf(dir: string): string {
  try {
    const id = (
      JSON.parse(readFileSync(join(dir, AGGREGATE_MANIFEST_PATH), 'utf8')) as {
        checkpoint_id?: unknown
      }
    ).checkpoint_id
    if (typeof id === 'string') return id
  } catch {
    // no readable manifest: the folder's name stands for the checkpoint
  }
  return basename(dir)
}

/**
 * The checkpoint directories of a recording, as paths on this machine: every `checkpoint_dir` its
 * commit and restore requests name (absolute as sent; a relative one resolves against the
 * recording's root, or to the directory of `--checkpoint-dirs` with the same name), then the
 * `--checkpoint-dirs` no request names.
 */
export function recordingDirectories(
  events: readonly TraceEvent[],
  recording: Pick<RecordingView, 'root' | 'checkpoint_dirs'>,
): { checkpoint_id: string; path: string }[] {
  const given = recording.checkpoint_dirs.map((d) => resolve(recording.root, d))
  const out: { checkpoint_id: string; path: string }[] = []
  for (const named of namedDirectories(events)) {
    const dir = named.checkpoint_dir
    const path = isAbsolute(dir)
      ? resolve(dir)
      : (given.find((g) => basename(g) === basename(dir)) ?? resolve(recording.root, dir))
    if (!out.some((d) => d.path === path && d.checkpoint_id === named.checkpoint_id))
      out.push({ checkpoint_id: named.checkpoint_id, path })
  }
  for (const path of given)
    if (!out.some((d) => d.path === path)) out.push({ checkpoint_id: checkpointIdOf(path), path })
  return out
}

/** The facts of every directory of a recording (read from disk now). */
export function recordingFacts(
  events: readonly TraceEvent[],
  recording: Pick<RecordingView, 'root' | 'checkpoint_dirs'>,
  facts: (checkpointId: string, path: string) => RecordedDirectoryFacts = directoryFacts,
): RecordedDirectoryFacts[] {
  return recordingDirectories(events, recording).map((d) => facts(d.checkpoint_id, d.path))
}

/**
 * A recorded run's view as its recording stands (docs/recording.md): the events so far, the
 * rollouts seen, the black-box checks (and the simulated invariants they stand for), the
 * directories it names, the participants and the lines that could not be read. `complete` marks
 * the recording closed (the recorder stopped, or an import).
 */
export function recordedRunView(
  view: RunView,
  tail: RecordingTail,
  facts: readonly RecordedDirectoryFacts[],
  complete: boolean,
): RunView {
  const recording = view.recording as RecordingView
  const events = tail.events
  const checks = recordedChecks(events, facts)
  const { invariants, failures } = recordedInvariants(checks)
  const rollouts = new Set<string>()
  for (const e of events) {
    const r = e.payload['rollout_id']
    if (typeof r === 'string' && e.type === 'run.dispatch') rollouts.add(r)
  }
  const aborted = events.some((e) => e.phase === 'abort')
  const refused = checks.some((c) => c.id === 'control-accepted' && c.status === 'fail')
  return {
    ...view,
    status: complete ? 'complete' : 'running',
    events: events.length,
    rollouts: rollouts.size,
    outcome: complete ? (aborted || refused ? 'aborted' : 'completed') : null,
    invariants,
    failures,
    recording: {
      ...recording,
      exchanges: events.length,
      participants: tail.participants(),
      problems: [...tail.problems],
      directories: facts.map((f) => ({
        checkpoint_id: f.checkpoint_id,
        path: f.path,
        exists: f.exists,
        published: f.aggregate !== null,
      })),
      checks,
    },
  }
}

import type { TraceEvent } from '../contracts/trace.ts'

/** A checkpoint directory as a recording's commit or restore request named it. */
export interface NamedDirectory {
  readonly checkpoint_id: string
  /** `checkpoint_dir` as sent (absolute, or relative to wherever the participant runs). */
  readonly checkpoint_dir: string
  /** The first event that named it. */
  readonly step: number
}

/**
 * The checkpoint directories a recorded trace's commit and restore requests name, each once, in
 * the order they were first named (the directory inspector opens them once they exist).
 */
export function namedDirectories(events: readonly TraceEvent[]): NamedDirectory[] {
  const out: NamedDirectory[] = []
  for (const e of events) {
    const id = e.payload['checkpoint_id']
    const dir = e.payload['checkpoint_dir']
    if (typeof id !== 'string' || typeof dir !== 'string' || dir === '') continue
    if (!out.some((d) => d.checkpoint_id === id && d.checkpoint_dir === dir))
      out.push({ checkpoint_id: id, checkpoint_dir: dir, step: e.step })
  }
  return out
}

import { existsSync, readFileSync } from 'node:fs'
import type { JsonValue } from '@cutover/core'
import type { TraceEvent, TracePhase } from '@cutover/core/contracts'
import { TRACE_PHASES } from '@cutover/core/contracts'
import type { WireRecord } from '../participants/processTrace.ts'

/**
 * A fleet trace event: the docs/protocol.md §12.2 event plus the wall-clock time and the sending
 * process.
 */
export type FleetTraceEvent = TraceEvent & { readonly wall_ms: number; readonly pid: number }

/** One source of records: the controller (with its phases) or one participant process's file. */
export interface TraceSource {
  /** Ties on the wall clock go to the lower rank (the controller is 0). */
  readonly rank: number
  readonly records: readonly (WireRecord & { readonly phase?: TracePhase })[]
}

/**
 * Reads a participant process's wire records (one JSON line each; a torn last line from a killed
 * process is skipped).
 */
export function readWireFile(file: string): WireRecord[] {
  if (!existsSync(file)) return []
  const out: WireRecord[] = []
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue
    try {
      out.push(JSON.parse(line) as WireRecord)
    } catch {
      // a line cut short when its process was killed mid-write
    }
  }
  return out
}

/** `<rollout_id>.a<attempt>` of a `/run` record's payload. */
const runKey = (payload: unknown): string => {
  const p = (payload ?? {}) as { rollout_id?: unknown; attempt_index?: unknown }
  return `${String(p.rollout_id)}.a${String(p.attempt_index)}`
}

/**
 * A participant's records without its `run.complete` answers that the dispatcher noted on their
 * delivery (`delivered`, as `<rollout_id>.a<attempt>`): the merged trace places an answer to the
 * controller where the controller received it, so it shows what the controller knew when.
 */
export function withoutDeliveredAnswers(
  records: readonly WireRecord[],
  delivered: ReadonlySet<string>,
): WireRecord[] {
  return records.filter((r) => !(r.type === 'run.complete' && delivered.has(runKey(r.payload))))
}

/**
 * Merges the records of every process into one trace: ordered by wall-clock time (all processes
 * share the machine's clock), ties by source rank then each source's own order, so the same records
 * always give the same trace. Steps count from 1, `time_ms` from the first record. The controller's
 * records carry their phase; every other record takes the phase of the controller record before it
 * (`run` before the first, `continue` once the agent resumed, `run` again after an abort).
 */
export function mergeFleetTrace(sources: readonly TraceSource[]): FleetTraceEvent[] {
  const all = sources.flatMap((s) => s.records.map((r) => ({ r, rank: s.rank })))
  all.sort((a, b) => a.r.wall_ms - b.r.wall_ms || a.rank - b.rank || a.r.seq - b.r.seq)
  const t0 = all[0]?.r.wall_ms ?? 0
  let phase: TracePhase = 'run'
  return all.map(({ r }, i) => {
    let own: TracePhase = phase
    if (r.phase !== undefined && (TRACE_PHASES as readonly string[]).includes(r.phase)) {
      own = r.phase
      // After a resume the rollouts continue; after an abort's resumes they simply run on.
      phase =
        r.type === 'agent.resume' && r.outcome === 'ok'
          ? r.phase === 'abort'
            ? 'run'
            : 'continue'
          : r.phase
    }
    const event = {
      step: i + 1,
      time_ms: r.wall_ms - t0,
      phase: own,
      from: r.from,
      to: r.to,
      type: r.type,
      payload: r.payload as { [key: string]: JsonValue },
      outcome: r.outcome,
      wall_ms: r.wall_ms,
      pid: r.pid,
    }
    return event as unknown as FleetTraceEvent
  })
}

import { appendFileSync } from 'node:fs'
import type { JsonValue } from '@cutover/core'

/**
 * One message a participant process sent, as it recorded it: the docs/protocol.md §12.2 fields
 * except `step`, `time_ms` and `phase` (the merge numbers and phases them), with the wall-clock
 * time and the process id in fields of their own.
 */
export interface WireRecord {
  readonly from: string
  readonly to: string
  readonly type: string
  readonly payload: { readonly [key: string]: JsonValue }
  readonly outcome: string
  readonly wall_ms: number
  readonly pid: number
  /** This process's own order (wall-clock ties keep it). */
  readonly seq: number
}

/**
 * Records one message this process sends: `from` is the process's participant unless given, `at`
 * the wall-clock time it was sent (default now: a request recorded once its answer is known passes
 * the time it went out).
 */
export type ProcessNote = (
  to: string,
  type: string,
  payload: { readonly [key: string]: JsonValue },
  outcome: string,
  options?: { readonly from?: string; readonly at?: number },
) => void

/** The environment variable naming the file a participant process appends its wire records to. */
export const TRACE_FILE_ENV = 'CUTOVER_TRACE_FILE'

/**
 * The recorder of one participant process: with `CUTOVER_TRACE_FILE` set (by `cutover fleet`),
 * every message the process sends is appended to that file as one JSON line, synchronously, so a
 * process killed after the checkpoint leaves every record it made; otherwise it records nothing.
 */
export function processTrace(
  participant: string,
  env: NodeJS.ProcessEnv = process.env,
  pid = process.pid,
): ProcessNote {
  const file = env[TRACE_FILE_ENV]
  if (file === undefined || file === '') return () => undefined
  let seq = 0
  return (to, type, payload, outcome, options = {}) => {
    const record: WireRecord = {
      from: options.from ?? participant,
      to,
      type,
      payload,
      outcome,
      wall_ms: options.at ?? Date.now(),
      pid,
      seq: seq++,
    }
    appendFileSync(file, `${JSON.stringify(record)}\n`)
  }
}

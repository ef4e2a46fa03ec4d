import type { RecordingProblem } from '../contracts/recording.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import { encodeUtf8 } from '../utf8.ts'
import type { RecordedExchange } from './RecordedExchange.ts'
import { REQUIRED_EXCHANGE_FIELDS, recordedExchangeSchema } from './RecordedExchange.ts'

/** One exchange with the line of the recording it was read from (1-based). */
export interface RecordingEntry {
  readonly line: number
  readonly exchange: RecordedExchange
}

const preview = (text: string): string =>
  JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)

/**
 * Reads one line of a recording: a JSON object with at least the fields of docs/recording.md. The
 * problem names the line and what is wrong with it (not JSON, a missing or mistyped field).
 */
export function readRecordingLine(
  text: string,
  line: number,
): Result<RecordedExchange, RecordingProblem> {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return err({
      line,
      message: `line ${line} is not JSON (${error instanceof Error ? error.message : String(error)}): ${preview(text)}`,
    })
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return err({ line, message: `line ${line} is not a JSON object: ${preview(text)}` })
  const missing = REQUIRED_EXCHANGE_FIELDS.filter((f) => !(f in parsed))
  if (missing.length > 0)
    return err({
      line,
      message: `line ${line} is not an exchange: it has no ${missing.join(', ')} (every line needs ${REQUIRED_EXCHANGE_FIELDS.join(', ')})`,
    })
  const checked = recordedExchangeSchema.safeParse(parsed)
  if (!checked.success) {
    const issue = checked.error.issues[0]
    return err({
      line,
      message: `line ${line} is not an exchange: ${issue?.path.join('.') || '(line)'}: ${issue?.message ?? 'invalid'}`,
    })
  }
  return ok(parsed as RecordedExchange)
}

/** A whole recording read back: its exchanges, the lines that are not exchanges, a torn end. */
export interface ParsedRecording {
  readonly entries: readonly RecordingEntry[]
  /** Complete lines (ended by a newline) that are not exchanges. */
  readonly malformed: readonly RecordingProblem[]
  /**
   * The last line, when the file does not end with a newline and that line is not an exchange: a
   * recording cut short mid-line (a recorder killed while writing, a truncated copy).
   */
  readonly truncated: RecordingProblem | null
}

/**
 * Splits a recording into exchanges. Blank lines are skipped. A last line without its newline is
 * still read when it parses (a hand-made file); when it does not, it is the truncated tail, and
 * every line before it is kept.
 */
export function parseRecording(text: string): ParsedRecording {
  const lines = text.split('\n')
  const tail = lines.pop() ?? ''
  const entries: RecordingEntry[] = []
  const malformed: RecordingProblem[] = []
  lines.forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (line.trim() === '') return
    const read = readRecordingLine(line, i + 1)
    if (read.ok) entries.push({ line: i + 1, exchange: read.value })
    else malformed.push(read.error)
  })
  let truncated: RecordingProblem | null = null
  if (tail.trim() !== '') {
    const line = lines.length + 1
    const read = readRecordingLine(tail, line)
    if (read.ok) entries.push({ line, exchange: read.value })
    else
      truncated = {
        line,
        message: `line ${line} is cut short (${encodeUtf8(tail).length} bytes without a newline): the recording was truncated mid-line; the ${entries.length} exchange${entries.length === 1 ? '' : 's'} before it are kept`,
      }
  }
  return { entries, malformed, truncated }
}

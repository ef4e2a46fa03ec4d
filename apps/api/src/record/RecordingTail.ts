import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import type { RecordingProblem, TraceEvent } from '@cutover/core/contracts'
import { RecordedTraceBuilder, readRecordingLine } from '@cutover/core'

/** Bytes read per call while catching up on a recording. */
const CHUNK = 1 << 20

/**
 * A recording read as it grows: each `read()` takes the complete lines appended since the last one
 * and turns them into trace events (one per exchange, `RecordedTraceBuilder`). A line still being
 * written (no newline yet) waits for the next read; `finish()` declares the recording closed, and
 * such a line is then reported as truncated, every line before it kept. A complete line that is
 * not an exchange is reported and skipped.
 */
export class RecordingTail {
  readonly path: string
  readonly events: TraceEvent[] = []
  readonly problems: RecordingProblem[] = []
  readonly #builder = new RecordedTraceBuilder()
  #offset = 0
  #line = 0
  #pending: Buffer = Buffer.alloc(0)
  #finished = false

  constructor(path: string) {
    this.path = path
  }

  /** The participant names seen so far, in order of appearance. */
  participants(): string[] {
    return this.#builder.participants().map((p) => p.name)
  }

  /** Reads what was appended since the last read; true when events were added. */
  read(): boolean {
    if (this.#finished) return false
    let fd: number
    try {
      fd = openSync(this.path, 'r')
    } catch {
      return false
    }
    const before = this.events.length
    try {
      const size = fstatSync(fd).size
      while (this.#offset < size) {
        const buffer = Buffer.alloc(Math.min(CHUNK, size - this.#offset))
        const n = readSync(fd, buffer, 0, buffer.length, this.#offset)
        if (n <= 0) break
        this.#offset += n
        this.#take(buffer.subarray(0, n))
      }
    } finally {
      closeSync(fd)
    }
    return this.events.length > before
  }

  /** Reads the rest and closes the recording: a last line without its newline is truncated. */
  finish(): void {
    this.read()
    if (this.#finished) return
    this.#finished = true
    if (this.#pending.length === 0) return
    const text = this.#pending.toString('utf8')
    this.#line++
    const read = readRecordingLine(text, this.#line)
    if (read.ok) this.events.push(this.#builder.add(read.value, this.#line))
    else
      this.problems.push({
        line: this.#line,
        message: `line ${this.#line} is cut short (${this.#pending.length} bytes without a newline): the recording was truncated mid-line, probably by a recorder killed while writing it; the ${this.events.length} exchange${this.events.length === 1 ? '' : 's'} before it are kept`,
      })
    this.#pending = Buffer.alloc(0)
  }

  #take(chunk: Buffer): void {
    let data = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk])
    for (;;) {
      const end = data.indexOf(0x0a)
      if (end < 0) break
      const raw = data.subarray(0, end).toString('utf8')
      data = data.subarray(end + 1)
      this.#line++
      const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw
      if (text.trim() === '') continue
      const read = readRecordingLine(text, this.#line)
      if (read.ok) this.events.push(this.#builder.add(read.value, this.#line))
      else this.problems.push(read.error)
    }
    this.#pending = Buffer.from(data)
  }
}

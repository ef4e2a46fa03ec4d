import type { TraceMessage, TracePhase } from '../contracts/trace.ts'
import { DEFAULT_WINDOW_SIZE, diagramWindow, type StepWindow } from './diagramWindow.ts'
import {
  ROLLOUTS_ID,
  compareParticipants,
  diagramParticipant,
  otherParticipantLabel,
  type DiagramParticipant,
} from './diagramParticipant.ts'
import { cutNoteText, messageLabel } from './messageLabel.ts'
import { sanitizeLabel } from './sanitizeLabel.ts'

/** What to draw of a trace. */
export interface SequenceDiagramOptions {
  /** The current step: its message is drawn in a highlight box and starts with `▶ `. */
  readonly highlight?: number
  /** Steps to draw (inclusive); default: `diagramWindow` around `highlight` (or the last step). */
  readonly window?: StepWindow
  /** Phases whose runs of messages are folded into one summary note each. */
  readonly collapsed?: readonly TracePhase[]
  /** At most this many events are drawn (default `MAX_DIAGRAM_EVENTS`). */
  readonly maxEvents?: number
  /**
   * `trace`: declare every participant of the whole trace (and count every rollout), so each
   * window of one run draws the same lifelines in the same places; default `window`: only those
   * the drawn window uses.
   */
  readonly lifelines?: 'window' | 'trace'
}

/** Mermaid source and the steps it actually covers (after the caps). */
export interface SequenceDiagram {
  /** The diagram with the highlighted message in its box, its text starting with `▶ `. */
  readonly source: string
  readonly window: StepWindow
  /** The same diagram without the highlight (box and marker), for a client that draws its own. */
  readonly plain: string
  /** The step of each drawn message, in drawing order (folded messages are not drawn). */
  readonly messageSteps: readonly number[]
  /** The index (in `messageSteps`) of the highlighted message, or -1 when it is not drawn. */
  readonly highlightIndex: number
}

/** One rendered diagram before the caller picks its form. */
interface Rendered {
  readonly lines: readonly string[]
  readonly messageSteps: readonly number[]
  /**
   * Where the highlighted message sits in `lines` (its box is the line before and after), or -1.
   */
  readonly highlightLine: number
  /** The highlighted message as drawn without its highlight. */
  readonly plainMessage: string
  readonly highlightIndex: number
}

function diagramOf(rendered: Rendered, window: StepWindow): SequenceDiagram {
  const { lines, highlightLine } = rendered
  const plainLines =
    highlightLine < 0
      ? lines
      : [
          ...lines.slice(0, highlightLine - 1),
          rendered.plainMessage,
          ...lines.slice(highlightLine + 2),
        ]
  return {
    source: lines.join('\n'),
    window,
    plain: plainLines.join('\n'),
    messageSteps: rendered.messageSteps,
    highlightIndex: rendered.highlightIndex,
  }
}

/** Upper bound on the events one diagram draws, whatever window is asked for. */
export const MAX_DIAGRAM_EVENTS = 2_000

/**
 * Upper bound on the source length. Mermaid refuses sources over `maxTextSize` (50,000 by
 * default); the margin leaves room for a caller's front matter or directives.
 */
export const MAX_SOURCE_CHARS = 40_000

/** The box around the current message. */
export const HIGHLIGHT_COLOUR = 'rgb(255, 214, 102)'

/** First character of the highlighted message's text: the web app finds the line by it. */
export const HIGHLIGHT_MARK = '▶'

/** One soft, distinct background per phase (the scrubber's bands can use the same). */
export const PHASE_COLOURS: { readonly [P in TracePhase]: string } = {
  run: 'rgb(241, 243, 245)',
  prepare: 'rgb(219, 234, 254)',
  retire: 'rgb(254, 226, 226)',
  commit: 'rgb(220, 252, 231)',
  restore: 'rgb(237, 233, 254)',
  resume: 'rgb(204, 251, 241)',
  continue: 'rgb(236, 252, 203)',
  abort: 'rgb(231, 229, 228)',
}

/**
 * Renders a trace as a mermaid `sequenceDiagram`: participants in the contract's fixed order (every
 * `rollout_<id>` folded into one `rollouts` lifeline), each run of same-phase events in a coloured
 * `rect` that opens with a note naming the phase, one message per event (`->>` when it succeeded,
 * `-x` with the error code when the receiver refused), the highlighted step in its own box, and
 * the events outside the window summarised in one note above and one below.
 *
 * The drawn window is capped twice — at `maxEvents` events and at `MAX_SOURCE_CHARS` characters
 * of source — by narrowing it around the highlighted step (or its last step); the result says
 * which steps were drawn. Pure: the same events and options give the same text.
 */
export function renderSequenceDiagram(
  events: readonly TraceMessage[],
  options: SequenceDiagramOptions = {},
): SequenceDiagram {
  const last = events[events.length - 1]?.step ?? 0
  if (last === 0)
    return {
      source: emptyDiagram(),
      window: { from: 0, to: 0 },
      plain: emptyDiagram(),
      messageSteps: [],
      highlightIndex: -1,
    }

  const asked = options.window
  const requested =
    asked !== undefined && Number.isFinite(asked.from) && Number.isFinite(asked.to)
      ? asked
      : diagramWindow(last, options.highlight ?? last, DEFAULT_WINDOW_SIZE)
  const from = Math.max(1, Math.floor(requested.from))
  const to = Math.min(last, Math.floor(requested.to))
  let lo = lowerBound(events, from)
  let hi = lowerBound(events, to + 1)
  if (lo >= hi) {
    const window = from <= to ? { from, to } : { from, to: from - 1 }
    return diagramOf(render(events, lo, lo, options, () => '', Infinity) as Rendered, window)
  }

  const highlight = options.highlight
  const anchorStep =
    highlight !== undefined && highlight >= from && highlight <= to ? highlight : to
  const anchor = Math.max(lo, Math.min(hi - 1, lowerBound(events, anchorStep)))
  const maxEvents =
    options.maxEvents !== undefined && Number.isFinite(options.maxEvents)
      ? options.maxEvents
      : MAX_DIAGRAM_EVENTS
  let limit = Math.max(1, Math.floor(Math.min(maxEvents, MAX_DIAGRAM_EVENTS)))
  // Message labels survive a narrowing, so each event's label is built at most once per call.
  const labels = new Map<number, string>()
  const labelOf = (k: number): string => {
    let label = labels.get(k)
    if (label === undefined) {
      label = messageLabel(events[k] as TraceMessage)
      labels.set(k, label)
    }
    return label
  }
  for (;;) {
    if (hi - lo > limit) {
      const start = Math.min(hi - limit, Math.max(lo, anchor - Math.floor(limit / 2)))
      lo = start
      hi = start + limit
    }
    // A single event always fits: every payload part is cut short before it is escaped.
    const rendered = render(
      events,
      lo,
      hi,
      options,
      labelOf,
      hi - lo > 1 ? MAX_SOURCE_CHARS : Infinity,
    )
    if (rendered !== undefined)
      return diagramOf(rendered, { from: stepAt(events, lo), to: stepAt(events, hi - 1) })
    // Halving keeps the work bounded: rendering stops as soon as the text is over the cap.
    limit = Math.max(1, Math.floor((hi - lo) / 2))
  }
}

function emptyDiagram(): string {
  return 'sequenceDiagram\nparticipant controller\nNote over controller: no messages yet\n'
}

/**
 * A phase outside the contract (a bad trace) is drawn like `run`; own keys only, never the
 * prototype's.
 */
function phaseColour(phase: string): string {
  return Object.hasOwn(PHASE_COLOURS, phase)
    ? PHASE_COLOURS[phase as TracePhase]
    : PHASE_COLOURS.run
}

/** Collects lines and stops taking them once the text would pass `budget` characters. */
class Lines {
  readonly lines: string[] = []
  private length = 0
  private readonly budget: number
  constructor(budget: number) {
    this.budget = budget
  }
  get full(): boolean {
    return this.length > this.budget
  }
  push(...lines: string[]): void {
    for (const line of lines) {
      this.lines.push(line)
      this.length += line.length + 1
    }
  }
}

function render(
  events: readonly TraceMessage[],
  lo: number,
  hi: number,
  options: SequenceDiagramOptions,
  labelOf: (index: number) => string,
  budget: number,
): Rendered | undefined {
  const ids = participantIds(events, lo, hi, options.lifelines === 'trace')
  const out = new Lines(budget)
  out.push('sequenceDiagram', ...ids.declarations)
  const span = ids.span
  const message = (k: number, prefix: string): string => {
    const event = events[k] as TraceMessage
    const arrow = event.outcome === 'ok' ? '->>' : '-x'
    return `${ids.of(event.from)}${arrow}${ids.of(event.to)}: ${prefix}${labelOf(k)}`
  }
  const messageSteps: number[] = []
  let highlightLine = -1
  let highlightIndex = -1
  let plainMessage = ''
  // a generation cut or continuation also gets a note on the worker's lifeline (not a message: no
  // step)
  const cutNote = (k: number): void => {
    const event = events[k] as TraceMessage
    const note = cutNoteText(event)
    if (note) out.push(`Note left of ${ids.of(event.to)}: ${note}`)
  }
  const plain = (k: number): void => {
    messageSteps.push((events[k] as TraceMessage).step)
    out.push(message(k, ''))
    cutNote(k)
  }
  const highlighted = (k: number): void => {
    highlightIndex = messageSteps.length
    messageSteps.push((events[k] as TraceMessage).step)
    highlightLine = out.lines.length + 1
    plainMessage = message(k, '')
    out.push(`rect ${HIGHLIGHT_COLOUR}`, message(k, `${HIGHLIGHT_MARK} `), 'end')
    cutNote(k)
  }

  if (lo > 0) out.push(`Note over ${span}: … ${count(lo, 'earlier message')}`)
  const collapsed = new Set(options.collapsed ?? [])
  const highlight = options.highlight

  let i = lo
  while (i < hi) {
    const phase = (events[i] as TraceMessage).phase
    let end = i + 1
    while (end < hi && (events[end] as TraceMessage).phase === phase) end++
    out.push(`rect ${phaseColour(phase)}`)
    if (collapsed.has(phase)) {
      // The highlighted message stays visible inside a folded phase, between two summaries.
      let runStart = i
      for (let k = i; k < end; k++) {
        if ((events[k] as TraceMessage).step !== highlight) continue
        if (k > runStart) out.push(summary(span, phase, events, runStart, k))
        highlighted(k)
        runStart = k + 1
      }
      if (end > runStart) out.push(summary(span, phase, events, runStart, end))
    } else {
      out.push(`Note over ${span}: ${sanitizeLabel(phase, 24)}`)
      for (let k = i; k < end && !out.full; k++) {
        if ((events[k] as TraceMessage).step === highlight) highlighted(k)
        else plain(k)
      }
    }
    out.push('end')
    if (out.full) return undefined
    i = end
  }

  if (hi < events.length)
    out.push(`Note over ${span}: … ${count(events.length - hi, 'later message')}`)
  if (out.full) return undefined
  out.lines.push('')
  return { lines: out.lines, messageSteps, highlightLine, plainMessage, highlightIndex }
}

function summary(
  span: string,
  phase: TracePhase,
  events: readonly TraceMessage[],
  from: number,
  to: number,
): string {
  let errors = 0
  for (let k = from; k < to; k++) if ((events[k] as TraceMessage).outcome !== 'ok') errors++
  const tail = errors > 0 ? `, ${count(errors, 'error')}` : ''
  return `Note over ${span}: ${sanitizeLabel(phase, 24)}: ${count(to - from, 'message')}${tail}`
}

interface ParticipantIds {
  readonly declarations: readonly string[]
  /** `first,last` of the declared lifelines (or the only one), for notes across the diagram. */
  readonly span: string
  of(participant: string): string
}

/** The participants met in a range of events, and the rollouts among them. */
interface Met {
  readonly seen: Map<string, DiagramParticipant>
  readonly rollouts: Set<string>
}

function meet(met: Met, events: readonly TraceMessage[], lo: number, hi: number): void {
  const note = (participant: string): void => {
    if (met.seen.has(participant)) return
    const info = diagramParticipant(participant)
    met.seen.set(participant, info)
    if (info.rollout !== null) met.rollouts.add(info.rollout)
  }
  for (let k = lo; k < hi; k++) {
    const event = events[k] as TraceMessage
    note(event.from)
    note(event.to)
  }
}

/**
 * The participants of a whole trace, remembered per events array and extended as it grows (a
 * running run's trace is appended to), so a step view does not rescan the trace.
 */
const metInTrace = new WeakMap<readonly TraceMessage[], Met & { scanned: number }>()

function traceParticipants(events: readonly TraceMessage[]): Met {
  let met = metInTrace.get(events)
  if (met === undefined || met.scanned > events.length) {
    met = { seen: new Map(), rollouts: new Set(), scanned: 0 }
    metInTrace.set(events, met)
  }
  if (met.scanned < events.length) {
    meet(met, events, met.scanned, events.length)
    met.scanned = events.length
  }
  return met
}

function participantIds(
  events: readonly TraceMessage[],
  lo: number,
  hi: number,
  wholeTrace: boolean,
): ParticipantIds {
  let met: Met
  if (wholeTrace) met = traceParticipants(events)
  else {
    met = { seen: new Map(), rollouts: new Set() }
    meet(met, events, lo, hi)
  }
  const { seen, rollouts } = met

  // Unknown ids get generated mermaid ids in name order, so the text is stable.
  const others = [...seen.entries()].filter(([, info]) => info.id === '').map(([name]) => name)
  others.sort()
  const mermaidId = new Map<string, string>()
  for (const [name, info] of seen) if (info.id !== '') mermaidId.set(name, info.id)
  others.forEach((name, n) => mermaidId.set(name, `other_${n + 1}`))

  const lifelines = new Map<string, { readonly info: DiagramParticipant; readonly label: string }>()
  for (const [name, info] of seen) {
    const id = mermaidId.get(name) as string
    if (lifelines.has(id)) continue
    const label =
      info.id === ''
        ? otherParticipantLabel(name)
        : id === ROLLOUTS_ID
          ? `rollouts (${rollouts.size})`
          : id
    lifelines.set(id, { info, label })
  }
  const ordered = [...lifelines.entries()].sort(([, a], [, b]) =>
    compareParticipants(a.info, b.info),
  )
  if (ordered.length === 0) {
    return { declarations: ['participant controller'], span: 'controller', of: () => 'controller' }
  }
  const declarations = ordered.map(([id, { label }]) =>
    label === id ? `participant ${id}` : `participant ${id} as ${label}`,
  )
  const first = (ordered[0] as [string, unknown])[0]
  const lastId = (ordered[ordered.length - 1] as [string, unknown])[0]
  return {
    declarations,
    span: first === lastId ? first : `${first},${lastId}`,
    of: (participant) => mermaidId.get(participant) as string,
  }
}

/** First index whose step is ≥ `step` (events are in step order). */
function lowerBound(events: readonly TraceMessage[], step: number): number {
  let lo = 0
  let hi = events.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((events[mid] as TraceMessage).step < step) lo = mid + 1
    else hi = mid
  }
  return lo
}

function stepAt(events: readonly TraceMessage[], index: number): number {
  return (events[index] as TraceMessage).step
}

/** `1,204 messages`, `1 error`: digits grouped by hand, since locale formatting is not pure. */
function count(n: number, noun: string): string {
  const digits = String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${digits} ${noun}${n === 1 ? '' : 's'}`
}

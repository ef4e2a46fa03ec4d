/** The marker the API puts at the start of the highlighted message's text (StepView.mermaid). */
export const HIGHLIGHT_MARK = '▶'

/** A sequence-diagram message statement: `A->>B: text`, `A-->>+B: text`, `A-xB: text`… */
const MESSAGE = /^\s*([^\s:;]+?)\s*(<<-{1,2}>>|-{1,2}>>|-{1,2}>|-{1,2}x|-{1,2}\))\s*[+-]?\s*([^\s:;]+?)\s*:(.*)$/

/** Parsed message line. */
export interface MessageLine {
  readonly line: number
  readonly from: string
  readonly to: string
  readonly text: string
}

/** The message statements of a mermaid sequence diagram, in order (mermaid draws them in this order). */
export function messageLines(source: string): MessageLine[] {
  const out: MessageLine[] = []
  source.split('\n').forEach((raw, line) => {
    const match = MESSAGE.exec(raw)
    if (match) out.push({ line, from: match[1] ?? '', to: match[3] ?? '', text: (match[4] ?? '').trim() })
  })
  return out
}

/** The index (among message lines) of the highlighted message, or -1. */
export function highlightIndex(source: string): number {
  return messageLines(source).findIndex((m) => m.text.startsWith(HIGHLIGHT_MARK))
}

/**
 * The source with the highlight box the API draws around the current message (`rect <colour>`,
 * the `▶` message, `end`) unwrapped, so the message sits where it would without the highlight. The
 * marker stays on the message; the web app draws its own highlight.
 */
export function unwrapHighlight(source: string): string {
  const lines = source.split('\n')
  const out: string[] = []
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    const next = lines[i + 1] ?? ''
    const match = MESSAGE.exec(next)
    if (/^\s*rect\b/.test(line) && match && (match[4] ?? '').trim().startsWith(HIGHLIGHT_MARK) && /^\s*end\s*$/.test(lines[i + 2] ?? '')) {
      out.push(next)
      i += 2
      continue
    }
    out.push(line)
  }
  return out.join('\n')
}

/**
 * The source with the highlight marker removed: two steps whose diagrams differ only in which
 * message is highlighted have the same key, so the SVG is drawn once and the highlight moves.
 */
export function diagramKey(source: string): string {
  return source
    .split('\n')
    .map((raw) => (MESSAGE.test(raw) ? raw.replace(new RegExp(`:\\s*${HIGHLIGHT_MARK}\\s?`), ': ') : raw))
    .join('\n')
}

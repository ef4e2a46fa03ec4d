import type { TraceEvent, TracePhase } from '@cutover/core/contracts'
import { HIGHLIGHT_MARK, messageLines } from './mermaidSource.ts'

/**
 * Folds the messages of collapsed phases into one note each, so a 1,000-rollout prepare reads as
 * one line. Message i of the window is step `window.from + i` (the API draws one message per
 * event); if the counts disagree the source is returned unchanged rather than mislabelled. The
 * highlighted message is never folded away.
 */
export function collapsePhases(
  source: string,
  window: { readonly from: number; readonly to: number },
  events: readonly Pick<TraceEvent, 'step' | 'phase'>[],
  collapsed: ReadonlySet<TracePhase>,
): string {
  if (collapsed.size === 0) return source
  const messages = messageLines(source)
  if (messages.length !== window.to - window.from + 1 || window.from < 1) return source
  const phaseOf = (i: number) => events[window.from + i - 1]?.phase
  const lines = source.split('\n')
  const out: string[] = []
  let m = 0
  let i = 0
  while (i < lines.length) {
    const message = messages[m]
    if (!message || message.line !== i) {
      out.push(lines[i] ?? '')
      i++
      continue
    }
    const phase = phaseOf(m)
    if (phase === undefined || !collapsed.has(phase) || message.text.startsWith(HIGHLIGHT_MARK)) {
      out.push(lines[i] ?? '')
      m++
      i++
      continue
    }
    // fold the run of consecutive messages of this phase (stopping at the highlighted one)
    const first = message
    let count = 0
    const start = window.from + m
    while (messages[m] && messages[m]?.line === i && phaseOf(m) === phase && !messages[m]?.text.startsWith(HIGHLIGHT_MARK)) {
      count++
      m++
      i++
      // lines between two messages (activations, rect ends) would be orphaned by the fold: stop there
      if (messages[m]?.line !== i) break
    }
    const over = first.from === first.to ? first.from : `${first.from},${first.to}`
    out.push(`  Note over ${over}: ${phase} folded: ${count} message${count === 1 ? '' : 's'} (steps ${start}–${start + count - 1})`)
  }
  return out.join('\n')
}

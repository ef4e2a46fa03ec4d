import type { StepView } from '@cutover/core/contracts'

/** Steps from the edge of a drawn window at which the diagram is redrawn around the new step. */
const WINDOW_MARGIN = 20

export interface DrawnDiagram {
  /** The API's diagram without its highlight. */
  readonly source: string
  readonly window: StepView['window']
  /** The step of each drawn message. */
  readonly steps: readonly number[]
  /** The folded phases it was drawn with (null: unknown, a placeholder from another key). */
  readonly folded: string | null
  /** Message index of the highlighted step, or -1. */
  readonly highlight: number
}

/**
 * The diagram to show for a step. The API centres its window on the step, so every step of a
 * long trace comes with a slightly shifted window; redrawing each one would cost a full mermaid
 * render per key press. While the step stays inside the window already drawn with the same folds
 * (and away from its edges, unless the edge is the trace's own end), the drawn source is kept and
 * only the highlight moves, to the message the API's step map gives for the step. A placeholder
 * step view never replaces a drawn diagram.
 */
export function stickyDiagram(
  previous: DrawnDiagram | null,
  data: StepView,
  total: number,
  folded: string | null,
): DrawnDiagram {
  const step = data.step
  // a placeholder (the last step view, kept while the next one loads) is older than what is drawn:
  // drawing its window would redraw twice per step during playback, once for it and once after
  if (previous && folded === null) return previous
  if (previous && previous.folded === folded) {
    const { from, to } = previous.window
    const index = previous.steps.indexOf(step)
    const awayFromEdges =
      (step - from >= WINDOW_MARGIN || from <= 1) && (to - step >= WINDOW_MARGIN || to >= total)
    if (index >= 0 && awayFromEdges) return withHighlight(previous, index)
    if (step === 0 && from <= 1) return withHighlight(previous, -1)
  }
  const next: DrawnDiagram = {
    source: data.diagram.source,
    window: data.window,
    steps: data.diagram.steps,
    folded,
    highlight: data.diagram.highlight,
  }
  return previous && sameDiagram(previous, next) ? previous : next
}

const withHighlight = (drawn: DrawnDiagram, highlight: number): DrawnDiagram =>
  drawn.highlight === highlight ? drawn : { ...drawn, highlight }

const sameDiagram = (a: DrawnDiagram, b: DrawnDiagram): boolean =>
  a.source === b.source &&
  a.highlight === b.highlight &&
  a.folded === b.folded &&
  a.window.from === b.window.from &&
  a.window.to === b.window.to

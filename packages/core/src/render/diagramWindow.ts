/**
 * Steps a diagram shows by default. A message line is ~60–110 characters, so a window of 120
 * messages stays far below mermaid's default `maxTextSize` (50,000) and draws in well under a
 * second in the browser (200 took ~1.2 s for a 1,000-rollout run).
 */
export const DEFAULT_WINDOW_SIZE = 120

/** An inclusive range of steps; `{ from: 0, to: 0 }` for a trace with no events. */
export interface StepWindow {
  readonly from: number
  readonly to: number
}

/**
 * The window of `size` steps around `step` in a trace of `total` events: the step sits in the
 * middle (half a window of context before it, the rest after), the window slides inward at either
 * end of the trace and never covers a step outside 1..total. Step 0 (before the first event)
 * gives the window at the start of the trace.
 */
export function diagramWindow(
  total: number,
  step: number,
  size: number = DEFAULT_WINDOW_SIZE,
): StepWindow {
  const steps = Number.isFinite(total) ? Math.max(0, Math.floor(total)) : 0
  if (steps === 0) return { from: 0, to: 0 }
  const width = Math.min(
    steps,
    Number.isFinite(size) ? Math.max(1, Math.floor(size)) : DEFAULT_WINDOW_SIZE,
  )
  const at = Number.isFinite(step) ? Math.min(steps, Math.max(1, Math.floor(step))) : steps
  const from = Math.min(steps - width + 1, Math.max(1, at - Math.floor(width / 2)))
  return { from, to: from + width - 1 }
}

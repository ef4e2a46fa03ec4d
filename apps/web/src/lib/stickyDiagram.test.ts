import { describe, expect, it } from 'vitest'
import type { StepView } from '@cutover/core/contracts'
import { stickyDiagram } from './stickyDiagram.ts'

/** A step view whose window is centred on `step` (as the API draws it), one message per step. */
const at = (step: number, total = 1_000, half = 60): StepView => {
  const from = Math.max(1, step - half)
  const to = Math.min(total, step + half)
  const steps = Array.from({ length: to - from + 1 }, (_, i) => from + i)
  return {
    step,
    total,
    window: { from, to },
    diagram: { source: `window ${from}-${to}`, highlight: steps.indexOf(step), steps },
  } as unknown as StepView
}

describe('the drawn diagram while stepping', () => {
  it('[playback] a step inside the drawn window only moves the highlight; near its edge the window is redrawn', () => {
    const first = stickyDiagram(null, at(100), 1_000, '')
    const next = stickyDiagram(first, at(101), 1_000, '')
    expect(next.source).toBe(first.source)
    expect(next.highlight).toBe(first.highlight + 1)
    expect(stickyDiagram(next, at(150), 1_000, '').source).toBe('window 90-210')
  })

  it('[playback] a placeholder step view (the last one, kept while the next loads) never replaces what is drawn', () => {
    const drawn = stickyDiagram(null, at(100), 1_000, '')
    const moved = stickyDiagram(drawn, at(130), 1_000, '')
    // during playback the placeholder is an older step whose own window differs from the drawn one
    expect(stickyDiagram(moved, at(120), 1_000, null)).toBe(moved)
    // the real view of the next step then keeps the drawing and moves the highlight
    expect(stickyDiagram(moved, at(131), 1_000, '').source).toBe(moved.source)
  })
})

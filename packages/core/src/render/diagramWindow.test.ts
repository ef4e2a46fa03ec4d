import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { DEFAULT_WINDOW_SIZE, diagramWindow } from './diagramWindow.ts'

describe('diagramWindow', () => {
  it('[window-empty] a trace without events has the window 0..0', () => {
    expect(diagramWindow(0, 0)).toEqual({ from: 0, to: 0 })
    expect(diagramWindow(0, 5, 10)).toEqual({ from: 0, to: 0 })
  })

  it('[window-centre] puts the step in the middle of the window, half a window of context before it', () => {
    expect(diagramWindow(1_000, 500, 10)).toEqual({ from: 495, to: 504 })
    expect(diagramWindow(1_000, 500, 11)).toEqual({ from: 495, to: 505 })
  })

  it('[window-edges] slides inward at either end of the trace; step 0 shows the start', () => {
    expect(diagramWindow(1_000, 0, 10)).toEqual({ from: 1, to: 10 })
    expect(diagramWindow(1_000, 3, 10)).toEqual({ from: 1, to: 10 })
    expect(diagramWindow(1_000, 1_000, 10)).toEqual({ from: 991, to: 1_000 })
    expect(diagramWindow(1_000, 5_000, 10)).toEqual({ from: 991, to: 1_000 })
    expect(diagramWindow(7, 4, 100)).toEqual({ from: 1, to: 7 })
  })

  it('[window-default] defaults to DEFAULT_WINDOW_SIZE steps', () => {
    const w = diagramWindow(50_000, 25_000)
    expect(w.to - w.from + 1).toBe(DEFAULT_WINDOW_SIZE)
  })

  it('[window-property] always covers min(size, total) steps inside 1..total and contains the clamped step', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: -10, max: 110_000 }),
        fc.integer({ min: 1, max: 5_000 }),
        (total, step, size) => {
          const w = diagramWindow(total, step, size)
          expect(w.from).toBeGreaterThanOrEqual(1)
          expect(w.to).toBeLessThanOrEqual(total)
          expect(w.to - w.from + 1).toBe(Math.min(size, total))
          const at = Math.min(total, Math.max(1, step))
          expect(at >= w.from && at <= w.to).toBe(true)
        },
      ),
      { numRuns: 500 },
    )
  })
})

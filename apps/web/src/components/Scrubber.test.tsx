// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { phaseBands } from '@cutover/core/contracts'
import { TRACE } from '../test/fixtures.ts'
import { Scrubber } from './Scrubber.tsx'
import { StepCounter } from './StepCounter.tsx'

afterEach(cleanup)

function Harness({
  start,
  total,
  onToggle,
}: {
  start: number
  total: number
  onToggle: () => void
}) {
  const [step, setStep] = useState(start)
  return (
    <>
      <Scrubber
        step={step}
        total={total}
        bands={phaseBands(TRACE)}
        onSeek={setStep}
        onTogglePlay={onToggle}
      />
      <StepCounter step={step} total={total} />
    </>
  )
}

describe('scrubber', () => {
  it('[keyboard] ←/→ step by one, Shift jumps ten, Home/End go to the ends, without leaving 0..total', () => {
    render(<Harness start={5} total={40} onToggle={() => {}} />)
    const slider = screen.getByTestId('scrubber')
    const counter = screen.getByTestId('step-counter')
    fireEvent.keyDown(slider, { key: 'ArrowRight' })
    expect(counter.textContent).toBe('step 6 / 40')
    fireEvent.keyDown(slider, { key: 'ArrowLeft' })
    fireEvent.keyDown(slider, { key: 'ArrowLeft' })
    expect(counter.textContent).toBe('step 4 / 40')
    fireEvent.keyDown(slider, { key: 'ArrowRight', shiftKey: true })
    expect(counter.textContent).toBe('step 14 / 40')
    fireEvent.keyDown(slider, { key: 'End' })
    expect(counter.textContent).toBe('step 40 / 40')
    fireEvent.keyDown(slider, { key: 'ArrowRight' })
    expect(counter.textContent).toBe('step 40 / 40')
    fireEvent.keyDown(slider, { key: 'Home' })
    expect(counter.textContent).toBe('step 0 / 40')
    fireEvent.keyDown(slider, { key: 'ArrowLeft' })
    expect(counter.textContent).toBe('step 0 / 40')
  })

  it('[keyboard] space toggles play and is not left to the browser', () => {
    const toggle = vi.fn()
    render(<Harness start={0} total={7} onToggle={toggle} />)
    const event = new KeyboardEvent('keydown', { key: ' ', bubbles: true, cancelable: true })
    screen.getByTestId('scrubber').dispatchEvent(event)
    expect(toggle).toHaveBeenCalledTimes(1)
    expect(event.defaultPrevented).toBe(true)
  })

  it('[scrubber] draws one coloured band per run of a banded phase, positioned by step', () => {
    const { container } = render(<Harness start={0} total={TRACE.length} onToggle={() => {}} />)
    const bands = [...container.querySelectorAll<HTMLElement>('.band')]
    expect(bands.map((b) => b.className)).toEqual([
      'band phase-prepare',
      'band phase-retire',
      'band phase-commit',
      'band phase-restore',
    ])
    // prepare covers steps 3–4 of 7
    expect(bands[0]?.style.left).toBe(`${(2 / 7) * 100}%`)
    expect(bands[0]?.style.width).toBe(`${(2 / 7) * 100}%`)
  })
})

describe('step counter', () => {
  it('[contract] reads exactly "step n / total"', () => {
    render(<StepCounter step={0} total={196} />)
    expect(screen.getByTestId('step-counter').textContent).toBe('step 0 / 196')
    cleanup()
    render(<StepCounter step={1234} total={20000} />)
    expect(screen.getByTestId('step-counter').textContent).toBe('step 1234 / 20000')
  })
})

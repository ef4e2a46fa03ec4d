import type { KeyboardEvent } from 'react'
import type { PhaseBand } from '@cutover/core/contracts'
import { stepKey } from '../lib/stepKey.ts'

/**
 * The step slider: a native range input (so it is keyboard- and screen-reader-friendly) over a
 * track of coloured phase bands. It handles its own keys, so the page-wide shortcuts see them as
 * handled and do not step twice.
 */
export function Scrubber({
  step,
  total,
  bands,
  onSeek,
  onTogglePlay,
}: {
  step: number
  total: number
  bands: readonly PhaseBand[]
  onSeek: (step: number) => void
  onTogglePlay: () => void
}) {
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const command = stepKey(event.key, event.shiftKey, step, total)
    if (!command) return
    event.preventDefault()
    if (command.kind === 'seek') onSeek(command.step)
    else onTogglePlay()
  }
  const span = Math.max(total, 1)
  return (
    <div className="scrubber">
      <div className="scrubber-bands" aria-hidden="true">
        {bands.map((band) => (
          <span
            key={`${band.phase}-${band.from}`}
            className={`band phase-${band.phase}`}
            title={`${band.phase}: steps ${band.from}–${band.to}`}
            style={{
              left: `${((band.from - 1) / span) * 100}%`,
              width: `${((band.to - band.from + 1) / span) * 100}%`,
            }}
          />
        ))}
      </div>
      <input
        type="range"
        data-testid="scrubber"
        aria-label="Step"
        aria-valuetext={`step ${step} of ${total}`}
        min={0}
        max={total}
        step={1}
        value={step}
        disabled={total === 0}
        onChange={(event) => onSeek(Number(event.currentTarget.value))}
        onKeyDown={onKeyDown}
      />
    </div>
  )
}

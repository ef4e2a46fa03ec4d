import type { PhaseStart } from '../lib/phaseStarts.ts'
import { nextPhase, previousPhase } from '../lib/phaseStarts.ts'
import { Icon } from './Icon.tsx'
import { SPEEDS } from './usePlayback.ts'

/**
 * Step buttons, play/pause and speed. Buttons carry names for screen readers and tooltips with
 * keys.
 */
export function TransportControls({
  step,
  total,
  playing,
  speed,
  onSeek,
  onTogglePlay,
  onSpeed,
  phases = [],
  onJump = onSeek,
}: {
  step: number
  total: number
  playing: boolean
  speed: number
  onSeek: (step: number) => void
  onTogglePlay: () => void
  onSpeed: (speed: number) => void
  /** Where each phase of the cycle starts, for previous/next phase. */
  phases?: readonly PhaseStart[]
  /** A jump (first/last step, previous/next phase): one history entry each, Back returns. */
  onJump?: (step: number) => void
}) {
  const previous = previousPhase(phases, step)
  const next = nextPhase(phases, step)
  return (
    <div className="transport-controls" role="group" aria-label="Step controls">
      <button
        type="button"
        aria-label="First step"
        title="First step (Home)"
        disabled={step === 0}
        onClick={() => onJump(0)}
      >
        <Icon name="first" />
      </button>
      <button
        type="button"
        aria-label="Step back"
        title="Step back (←)"
        disabled={step === 0}
        onClick={() => onSeek(step - 1)}
      >
        <Icon name="back" />
      </button>
      <button
        type="button"
        className="play"
        aria-label={playing ? 'Pause' : 'Play'}
        title="Play / pause (space)"
        disabled={total === 0}
        onClick={onTogglePlay}
      >
        <Icon name={playing ? 'pause' : 'play'} />
      </button>
      <button
        type="button"
        aria-label="Step forward"
        title="Step forward (→)"
        disabled={step >= total}
        onClick={() => onSeek(step + 1)}
      >
        <Icon name="forward" />
      </button>
      <button
        type="button"
        aria-label="Last step"
        title="Last step (End)"
        disabled={step >= total}
        onClick={() => onJump(total)}
      >
        <Icon name="last" />
      </button>
      <button
        type="button"
        className="phase-jump"
        aria-label="previous phase"
        title={
          previous
            ? `Previous phase: ${previous.phase} at step ${previous.step}`
            : 'No earlier phase'
        }
        disabled={!previous}
        onClick={() => previous && onJump(previous.step)}
      >
        ⇤ phase
      </button>
      <button
        type="button"
        className="phase-jump"
        aria-label="next phase"
        title={next ? `Next phase: ${next.phase} at step ${next.step}` : 'No later phase'}
        disabled={!next}
        onClick={() => next && onJump(next.step)}
      >
        phase ⇥
      </button>
      <select
        aria-label="Playback speed"
        value={speed}
        onChange={(e) => onSpeed(Number(e.currentTarget.value))}
      >
        {SPEEDS.map((s) => (
          <option key={s} value={s}>
            {s}×
          </option>
        ))}
      </select>
    </div>
  )
}

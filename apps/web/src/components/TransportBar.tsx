import type { ReactNode } from 'react'
import type { PhaseBand } from '@cutover/core/contracts'
import type { PhaseStart } from '../lib/phaseStarts.ts'
import { Scrubber } from './Scrubber.tsx'
import { StepCounter } from './StepCounter.tsx'
import { TransportControls } from './TransportControls.tsx'
import type { usePlayback } from './usePlayback.ts'

/**
 * The transport row of a run page and of the paired demo: step buttons, play/pause and speed, the
 * scrubber with its phase bands, and the step counter. `shown` is the step drawn (the run page
 * shows the last drawn step while the next one loads); `children` sit at the row's end.
 */
export function TransportBar({
  step,
  shown = step,
  total,
  playback,
  onSeek,
  phases,
  bands,
  children,
  onJump,
}: {
  step: number
  shown?: number
  total: number
  playback: ReturnType<typeof usePlayback>
  onSeek: (step: number) => void
  phases: readonly PhaseStart[]
  bands: readonly PhaseBand[]
  children?: ReactNode
  /** Jumps that add a history entry (phase and end buttons); default `onSeek`. */
  onJump?: (step: number) => void
}) {
  return (
    <div className="transport">
      <TransportControls
        step={step}
        total={total}
        playing={playback.playing}
        speed={playback.speed}
        onSeek={onSeek}
        onTogglePlay={playback.toggle}
        onSpeed={playback.setSpeed}
        phases={phases}
        onJump={onJump}
      />
      <Scrubber
        step={shown}
        total={total}
        bands={bands}
        onSeek={onSeek}
        onTogglePlay={playback.toggle}
      />
      <StepCounter step={shown} total={total} />
      {children}
    </div>
  )
}

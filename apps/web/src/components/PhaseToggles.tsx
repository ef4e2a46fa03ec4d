import type { TracePhase } from '@cutover/core/contracts'
import { BANDED_PHASES } from '@cutover/core/contracts'

/** Buttons that fold a phase's messages in the diagram (aria-pressed = folded). */
export function PhaseToggles({
  collapsed,
  onToggle,
  present,
}: {
  collapsed: ReadonlySet<TracePhase>
  onToggle: (phase: TracePhase) => void
  present: ReadonlySet<TracePhase>
}) {
  const phases: TracePhase[] = ['run', ...BANDED_PHASES, 'continue']
  return (
    <div className="phase-toggles" role="group" aria-label="Fold phases in the diagram">
      <span className="muted small">fold</span>
      {phases
        .filter((p) => present.has(p))
        .map((phase) => (
          <button
            key={phase}
            type="button"
            className={`phase-toggle phase-${phase}`}
            aria-pressed={collapsed.has(phase)}
            onClick={() => onToggle(phase)}
          >
            {phase}
          </button>
        ))}
    </div>
  )
}

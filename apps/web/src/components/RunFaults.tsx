import type { Fault, RunView } from '@cutover/core/contracts'
import { FaultChip } from './FaultChip.tsx'

/**
 * The run's fault schedule as chips (one `fault-chip` each; an inert one is marked), its
 * teaching-mode bug, and one line per fault that never fired saying why. With `onRemove` the chips
 * are editable: each has a "run without this fault" button, given the schedule without it.
 */
export function RunFaults({
  run,
  onRemove,
}: {
  run: Pick<RunView, 'faults' | 'inert_faults' | 'bug' | 'status'> & { rollouts?: number }
  onRemove?: (faults: readonly Fault[]) => void
}) {
  if (run.faults.length === 0 && run.bug === undefined) return null
  const inert = new Set(run.inert_faults.map((f) => JSON.stringify(f.fault)))
  return (
    <div className="run-faults">
      {run.bug !== undefined && (
        <span
          className="badge bug-badge"
          data-testid="bug-badge"
          title="teaching mode: a deliberately broken behaviour"
        >
          bug: {run.bug}
        </span>
      )}
      {run.faults.map((f, i) => (
        <FaultChip
          key={i}
          fault={f}
          inert={inert.has(JSON.stringify(f))}
          rollouts={run.rollouts}
          removeLabel="Run without this fault"
          onRemove={onRemove && (() => onRemove(run.faults.filter((_, j) => j !== i)))}
        />
      ))}
      {run.inert_faults.length > 0 && (
        <ul className="inert-faults" aria-label="Faults that never fired">
          {run.inert_faults.map((f, i) => (
            <li key={i} data-testid="inert-fault">
              <span className="mono">{JSON.stringify(f.fault)}</span> — {f.reason}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

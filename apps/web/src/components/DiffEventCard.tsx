import type { RunView, TraceEvent } from '@cutover/core/contracts'
import { Link } from '../router/Link.tsx'
import { JsonTree } from './JsonTree.tsx'

/** One side of the first divergence: the run's event at that step (or the absence of one). */
export function DiffEventCard({
  side,
  run,
  step,
  event,
  other,
  lacking,
}: {
  side: 'A' | 'B'
  run: RunView
  step: number
  event: TraceEvent | null
  other: TraceEvent | null
  /** How many events the other run has here that this one lacks (0: the two events differ). */
  lacking: number
}) {
  return (
    <section className="diff-event" aria-label={`Run ${side} at step ${step}`} data-side={side}>
      <header className="panel-head">
        <strong>{side}</strong>
        <Link
          href={`/runs/${encodeURIComponent(run.id)}?step=${Math.min(step, run.events)}&tab=events`}
          className="mono"
        >
          {run.id} · step {step}
        </Link>
        <span className="muted small">
          {run.scenario} · seed {run.seed}
        </span>
      </header>
      {event === null ? (
        <p className="notice notice-empty">Run {side} has ended here: the other run goes on.</p>
      ) : (
        <>
          {lacking > 0 && (
            <p className="notice notice-empty small">
              The other run has {lacking} event{lacking === 1 ? '' : 's'} here that run {side}{' '}
              lacks; run {side} continues with this one.
            </p>
          )}
          <p className="diff-event-line">
            <span className={`phase-chip phase-${event.phase}`}>{event.phase}</span>{' '}
            <span className="mono">{event.from}</span> → <span className="mono">{event.to}</span>{' '}
            <strong className="mono">{event.type}</strong>{' '}
            <span className={event.outcome === 'ok' ? 'muted' : 'error-code'}>{event.outcome}</span>{' '}
            <span className="muted small">t={event.time_ms} ms</span>
          </p>
          <div className="json-view">
            <JsonTree value={event.payload} compare={other?.payload} />
          </div>
        </>
      )}
    </section>
  )
}

import { DEFAULT_CUT_MODE, INVARIANT_IDS } from '@cutover/core/contracts'
import type { Fault, RunView } from '@cutover/core/contracts'
import { Link } from '../router/Link.tsx'
import { routeHref } from '../router/route.ts'
import { RunFaults } from './RunFaults.tsx'
import { StatusBadge } from './StatusBadge.tsx'

/**
 * The run's identity line: scenario, seed, fleet size, cut mode (when not the default), status and
 * the invariant verdict; its fault chips are editable when `onRemoveFault` is given (a new run
 * without the fault).
 */
export function RunHeader({
  run,
  onRemoveFault,
}: {
  run: RunView
  onRemoveFault?: (faults: readonly Fault[]) => void
}) {
  const failing = INVARIANT_IDS.filter((id) => run.invariants[id] === 'fail')
  return (
    <header className="run-head">
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link href="/">Runs</Link> <span aria-hidden="true">/</span>{' '}
        <span className="mono">{run.id}</span>
        {run.parent !== undefined && (
          <>
            {' '}
            <span className="muted">· made from</span>{' '}
            <Link
              className="mono"
              data-testid="parent-run"
              href={routeHref({
                page: 'run',
                id: run.parent,
                step: null,
                tab: 'sessions',
                session: null,
              })}
            >
              {run.parent}
            </Link>
          </>
        )}
      </nav>
      <h1>
        {run.scenario} <span className="muted small">seed</span>{' '}
        <span className="mono seed" title={run.seed}>
          {run.seed}
        </span>{' '}
        <span className="muted small">
          · {run.rollouts} rollouts · deadline {run.deadline_ms} ms
          {run.cut_mode !== undefined && run.cut_mode !== DEFAULT_CUT_MODE ? ' · ' : ''}
        </span>
        {run.cut_mode !== undefined && run.cut_mode !== DEFAULT_CUT_MODE && (
          <span
            className={`mode-chip mode-${run.cut_mode}`}
            data-testid="cut-mode"
            title="What prepare does to a model call still generating at the deadline"
          >
            {run.cut_mode}
          </span>
        )}
      </h1>
      <div className="run-verdict">
        <StatusBadge status={run.status} queuePosition={run.queue_position} />
        {run.kind === 'fleet' && (
          <span
            className="badge"
            data-testid="recorded-badge"
            title={`recorded by cutover fleet from ${run.processes?.length ?? 0} participant processes (originals and replacements)`}
          >
            recorded from processes
          </span>
        )}
        {/* "complete" says the run completed; only an aborted transaction needs its own badge */}
        {run.outcome === 'aborted' && <span className="badge">aborted</span>}
        <InvariantSummary run={run} failing={failing} />
      </div>
      <RunFaults run={run} onRemove={onRemoveFault} />
      {run.error && (
        <p role="alert" className="notice notice-error">
          {run.error}
        </p>
      )}
    </header>
  )
}

/** `7/7 invariants pass`, or the failing ids. */
export function InvariantSummary({ run, failing }: { run: RunView; failing?: readonly string[] }) {
  const fails = failing ?? INVARIANT_IDS.filter((id) => run.invariants[id] === 'fail')
  if (fails.length === 0)
    return (
      <span className="inv-summary is-pass">
        ✓ {INVARIANT_IDS.length}/{INVARIANT_IDS.length} invariants
        {run.status === 'running' ? ' so far' : ''}
      </span>
    )
  return (
    <span className="inv-summary is-fail" title={fails.join(', ')}>
      ✗ {fails.length} failing: {fails.join(', ')}
    </span>
  )
}

import type { RunView } from '@cutover/core/contracts'
import { Link } from '../router/Link.tsx'
import { StatusBadge } from './StatusBadge.tsx'

/**
 * A recorded run's identity line (docs/recording.md): its name, the badge "recorded from a real
 * controller", its status, the checks' verdict, where its exchanges came from (the proxies and
 * the servers behind them, or the imported file) and the lines of the recording that could not be
 * read.
 */
export function RecordedRunHeader({ run }: { run: RunView }) {
  const recording = run.recording
  const checks = recording?.checks ?? []
  const failing = checks.filter((c) => c.status === 'fail')
  const passing = checks.filter((c) => c.status === 'pass').length
  const unseen = checks.filter((c) => c.status === 'not_observed').length
  return (
    <header className="run-head recorded-head">
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link href="/">Runs</Link> <span aria-hidden="true">/</span>{' '}
        <span className="mono">{run.id}</span>
      </nav>
      <h1>
        {recording?.name ?? 'Recorded checkpoint'}{' '}
        <span className="muted small">
          · {run.events} exchange{run.events === 1 ? '' : 's'} · {run.rollouts} rollout
          {run.rollouts === 1 ? '' : 's'}
        </span>
      </h1>
      <div className="run-verdict">
        <StatusBadge status={run.status} />
        <span
          className="badge"
          data-testid="recorded-badge"
          title={
            recording?.source === 'import'
              ? 'imported from a recording of HTTP exchanges (cutover import)'
              : 'recorded by cutover record: a proxy in front of every participant'
          }
        >
          recorded from a real controller
        </span>
        {run.status === 'running' && (
          <span className="badge status-running" data-testid="recording-live">
            ● recording
          </span>
        )}
        {run.outcome === 'aborted' && <span className="badge">aborted</span>}
        <span
          className={`inv-summary ${failing.length === 0 ? 'is-pass' : 'is-fail'}`}
          data-testid="recorded-verdict"
          title={failing.map((c) => c.id).join(', ')}
        >
          {failing.length === 0
            ? `✓ ${passing} check${passing === 1 ? '' : 's'} pass`
            : `✗ ${failing.length} failing: ${failing.map((c) => c.id).join(', ')}`}
          {unseen > 0 ? ` · ${unseen} not observed` : ''}
          {run.status === 'running' ? ' so far' : ''}
        </span>
      </div>
      {recording !== undefined && recording.proxies.length > 0 && (
        <details className="recorded-proxies-box muted small">
          <summary>
            Recorded through {recording.proxies.length}{' '}
            {recording.proxies.length === 1 ? 'proxy' : 'proxies'}:{' '}
            {recording.proxies.map((p) => p.name).join(', ')}
          </summary>
          <ul className="recorded-proxies" aria-label="Recording proxies">
            {recording.proxies.map((p) => (
              <li key={p.name}>
                <span className="mono strong">{p.name}</span> <span className="mono">{p.url}</span>{' '}
                → <span className="mono">{p.upstream}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
      {recording?.source === 'import' && (
        <p className="muted small">
          Imported from <span className="mono">{recording.name}</span>.
        </p>
      )}
      {(recording?.problems ?? []).map((p) => (
        <p role="alert" className="notice notice-error" key={`${p.line}:${p.message}`}>
          {p.message}
        </p>
      ))}
    </header>
  )
}

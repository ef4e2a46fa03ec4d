import type { DirectoryRunView, DirectorySessionView } from '@cutover/core/contracts'
import { Empty } from './Empty.tsx'
import { JsonTree } from './JsonTree.tsx'
import { SessionsTable } from './SessionsTable.tsx'

/**
 * One snapshot's state in its environment's words: a hand and the RNG position, a counter, changed
 * rows.
 */
function SnapshotDetail({
  session,
  onOpenTables,
  onOpenFile,
}: {
  session: DirectorySessionView
  onOpenTables: () => void
  onOpenFile: (path: string) => void
}) {
  const d = session.detail
  return (
    <section
      className="session-detail"
      aria-label={`Session ${session.row.key}`}
      data-session={session.row.key}
    >
      <div className="panel-head">
        <h3 className="mono">{session.row.key}</h3>
        <span className="muted small">
          {session.server} · revision {session.row.revision ?? '—'} ·{' '}
          <span className="mono">{session.file}</span>
        </span>
        {session.verified ? (
          <span className="badge status-complete">file verifies</span>
        ) : (
          <span className="badge status-failed">file has problems: not verified</span>
        )}
      </div>
      {session.problem && (
        <p className="notice notice-error" data-testid="session-problem">
          <code className="error-code">{session.problem.code}</code>{' '}
          <span className="mono">{session.file}</span>: {session.problem.message}{' '}
          <button type="button" className="link-button" onClick={() => onOpenFile(session.file)}>
            Show in Manifests →
          </button>
        </p>
      )}
      {d.kind === 'blackjack' ? (
        <dl className="facts">
          <dt>Player</dt>
          <dd className="mono">
            [{d.player.join(', ')}] = {d.player_value}
          </dd>
          <dt>Dealer</dt>
          <dd className="mono">[{d.dealer.join(', ')}]</dd>
          <dt>RNG position</dt>
          <dd className="mono">
            {d.rng_position} / 624 (Mersenne Twister index, CPython getstate())
          </dd>
        </dl>
      ) : d.kind === 'counter' ? (
        <dl className="facts">
          <dt>Counter</dt>
          <dd className="mono">{d.counter}</dd>
        </dl>
      ) : d.kind === 'workplace' ? (
        <dl className="facts">
          <dt>Form</dt>
          <dd>
            {d.form === 'delta'
              ? 'delta against the base tables'
              : 'full tables (pandas orient="split")'}
          </dd>
          <dt>Against the base</dt>
          <dd>
            +{d.added} added · ~{d.changed} changed · −{d.removed} removed{' '}
            <button type="button" className="link-button" onClick={onOpenTables}>
              Show tables →
            </button>
          </dd>
        </dl>
      ) : (
        <p role="alert" className="notice notice-error">
          The snapshot&apos;s state cannot be decoded: {d.message}
        </p>
      )}
      <details>
        <summary>state as written</summary>
        <div className="json-view">
          <JsonTree value={session.state} />
        </div>
      </details>
    </section>
  )
}

/**
 * The Sessions tab of a directory run: one row per resources snapshot, and the selected one's
 * state.
 */
export function DirectorySessionsTab({
  run,
  selected,
  onSelect,
  onOpenTables,
  onOpenFile,
}: {
  run: DirectoryRunView
  selected: string | null
  onSelect: (key: string) => void
  onOpenTables: () => void
  /** Opens the Manifests tab at a file (a damaged snapshot's). */
  onOpenFile: (path: string) => void
}) {
  const session = run.sessions.find((s) => s.row.key === selected)
  const problems = new Map(
    run.sessions.flatMap((s) => (s.problem ? [[s.row.key, s.problem.code] as const] : [])),
  )
  const damaged = run.sessions.filter((s) => s.problem !== undefined)
  return (
    <div className="sessions-tab">
      {run.sessions.length === 0 ? (
        <Empty>No readable resources snapshot in this directory.</Empty>
      ) : (
        <div>
          {damaged.length > 0 && (
            <p className="notice notice-error small" data-testid="damaged-sessions">
              {damaged.length} damaged session{damaged.length === 1 ? '' : 's'}:{' '}
              {damaged.map((s, i) => (
                <span key={s.row.key}>
                  {i > 0 && ', '}
                  <button
                    type="button"
                    className="link-button mono"
                    onClick={() => onSelect(s.row.key)}
                  >
                    {s.row.key}
                  </button>{' '}
                  (<code>{s.problem?.code}</code> in <span className="mono">{s.file}</span>)
                </span>
              ))}
            </p>
          )}
          <SessionsTable
            rows={run.sessions.map((s) => s.row)}
            selected={selected}
            onSelect={onSelect}
            problems={problems}
          />
        </div>
      )}
      {session ? (
        <SnapshotDetail session={session} onOpenTables={onOpenTables} onOpenFile={onOpenFile} />
      ) : (
        <Empty>Select a session to see the state its snapshot holds.</Empty>
      )}
    </div>
  )
}

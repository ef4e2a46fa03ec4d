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
}: {
  session: DirectorySessionView
  onOpenTables: () => void
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
}: {
  run: DirectoryRunView
  selected: string | null
  onSelect: (key: string) => void
  onOpenTables: () => void
}) {
  const session = run.sessions.find((s) => s.row.key === selected)
  return (
    <div className="sessions-tab">
      {run.sessions.length === 0 ? (
        <Empty>No readable resources snapshot in this directory.</Empty>
      ) : (
        <SessionsTable
          rows={run.sessions.map((s) => s.row)}
          selected={selected}
          onSelect={onSelect}
        />
      )}
      {session ? (
        <SnapshotDetail session={session} onOpenTables={onOpenTables} />
      ) : (
        <Empty>Select a session to see the state its snapshot holds.</Empty>
      )}
    </div>
  )
}

import { useMemo, useState } from 'react'
import type { DirectoryLineageView } from '@cutover/core/contracts'
import { Empty } from './Empty.tsx'

type Status = DirectoryLineageView['rollouts'][number]['attempts'][number]['status']
const STATUS_NOTE: { readonly [S in Status]: string } = {
  running: 'in flight at the cut',
  completed: 'completed',
  continued: 'continuation root: N+1 continues from here',
  retired: 'retired straggler',
  fenced: 'fenced (tombstoned)',
}

/**
 * The lineage the model ledger holds: rollout → attempts → model calls, tombstoned attempts marked,
 * each continuation root's last committed call marked as the call attempt N+1 relays from.
 */
export function DirectoryLineageTab({ lineage }: { lineage: DirectoryLineageView }) {
  const [filter, setFilter] = useState('')
  const rootCalls = useMemo(() => new Set(lineage.roots.map((r) => r.model_call_id)), [lineage.roots])
  const needle = filter.trim().toLowerCase()
  const shown = lineage.rollouts.filter((r) => !needle || r.rollout_id.toLowerCase().includes(needle) || r.environment.includes(needle))
  return (
    <div className="lineage" data-testid="lineage-tree">
      <div className="table-tools">
        <input type="search" aria-label="Filter rollouts" placeholder="Filter rollouts" value={filter} onChange={(e) => setFilter(e.currentTarget.value)} />
        <span className="muted">
          {lineage.rollouts.length} rollouts · {lineage.roots.length} continuation roots · {lineage.tombstones.length} tombstones
        </span>
      </div>
      {shown.length === 0 ? (
        <Empty>{lineage.rollouts.length === 0 ? 'The model ledger holds no lineage.' : 'No rollout matches.'}</Empty>
      ) : (
        <ul aria-label="Rollout lineage" className="tree">
          {shown.map((rollout) => (
            <li key={rollout.rollout_id} className="tree-rollout" data-rollout={rollout.rollout_id}>
              <span className="tree-label">
                <span className="mono strong">{rollout.rollout_id}</span> <span className="muted">{rollout.environment}</span>
              </span>
              <ul>
                {rollout.attempts.map((attempt) => (
                  <li key={attempt.attempt} className={`tree-attempt attempt-${attempt.status}`} data-attempt={`${rollout.rollout_id}.a${attempt.attempt}`} data-status={attempt.status}>
                    <span className="tree-label">
                      <span className="mono">
                        {rollout.rollout_id}.a{attempt.attempt}
                      </span>{' '}
                      <span className={`attempt-chip attempt-${attempt.status}`}>{STATUS_NOTE[attempt.status]}</span>
                    </span>
                    {attempt.calls.length > 0 && (
                      <ul className="tree-calls">
                        {attempt.calls.map((call) => (
                          <li key={call.model_call_id} className={call.relay || rootCalls.has(call.model_call_id) ? 'tree-call is-relay' : 'tree-call'}>
                            <span className="mono">{call.model_call_id}</span>
                            {call.parent_call_id && (
                              <span className={call.relay ? 'relay-link' : 'muted mono'}>
                                {call.relay ? ' ↰ relay from restored parent ' : ' ← '}
                                <span className="mono">{call.parent_call_id}</span>
                              </span>
                            )}
                            {rootCalls.has(call.model_call_id) && <span className="relay-link"> ⇢ last committed call: attempt {attempt.attempt + 1}&apos;s first call relays from here</span>}
                          </li>
                        ))}
                      </ul>
                    )}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

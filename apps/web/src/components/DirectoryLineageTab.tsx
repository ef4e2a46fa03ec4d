import { useMemo, useState } from 'react'
import type { DirectoryLineageView } from '@cutover/core/contracts'
import { Empty } from './Empty.tsx'
import { LineageGraph } from './LineageGraph.tsx'
import { LineageTree } from './LineageTree.tsx'
import type { AttemptStatus } from './LineageTree.tsx'

const STATUS_NOTE: { readonly [S in AttemptStatus]: string } = {
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
  const rootCalls = useMemo(
    () => new Set(lineage.roots.map((r) => r.model_call_id)),
    [lineage.roots],
  )
  const needle = filter.trim().toLowerCase()
  const shown = lineage.rollouts.filter(
    (r) => !needle || r.rollout_id.toLowerCase().includes(needle) || r.environment.includes(needle),
  )
  return (
    <div className="lineage" data-testid="lineage-tree">
      <div className="table-tools">
        <input
          type="search"
          aria-label="Filter rollouts"
          placeholder="Filter rollouts"
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
        />
        <span className="muted">
          {lineage.rollouts.length} rollouts · {lineage.roots.length} continuation roots ·{' '}
          {lineage.tombstones.length} tombstones
        </span>
      </div>
      {shown.length === 0 ? (
        <Empty>
          {lineage.rollouts.length === 0
            ? 'The model ledger holds no lineage.'
            : 'No rollout matches.'}
        </Empty>
      ) : (
        <>
          <LineageGraph rollouts={shown} statusNote={STATUS_NOTE} />
          <LineageTree
            rollouts={shown}
            statusNote={STATUS_NOTE}
            marked={(attempt, callId) =>
              rootCalls.has(callId)
                ? `last committed call: attempt ${attempt + 1}'s first call relays from here`
                : undefined
            }
          />
        </>
      )}
    </div>
  )
}

import { useMemo, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import type { LineageView } from '@cutover/core/contracts'
import { lineageQuery } from '../api/queries.ts'
import { Empty } from './Empty.tsx'
import { ErrorNotice } from './ErrorNotice.tsx'
import { LineageGraph } from './LineageGraph.tsx'
import { LineageTree } from './LineageTree.tsx'
import { Loading } from './Loading.tsx'

type Rollout = LineageView['rollouts'][number]

const STATUS_NOTE: { readonly [S in Rollout['attempts'][number]['status']]: string } = {
  running: 'running',
  completed: 'completed',
  continued: 'continued after restore',
  retired: 'retired straggler',
  fenced: 'fenced (tombstoned)',
}

/** Rollouts worth opening first: anything retired, fenced or relayed across a restore. */
const interesting = (r: Rollout) =>
  r.attempts.length > 1 || r.attempts.some((a) => a.status === 'retired' || a.status === 'fenced')

/**
 * The Lineage tab: rollout → attempts → model calls. Retired stragglers and fenced attempts are
 * marked; the relay call of attempt N+1 shows the arrow back to the restored parent call of N.
 */
export function LineageTab({
  runId,
  step,
  onSeek,
  session = null,
  initialView = 'graph',
  scope,
}: {
  runId: string
  step: number
  onSeek: (step: number) => void
  session?: string | null
  /** How the tab opens: the drawn graph, or the list (the generation-cut demo's narrow panels). */
  initialView?: 'graph' | 'list'
  /** Named after its controls when a page holds two lineages (`whole-request`, …). */
  scope?: string
}) {
  const named = (name: string) => (scope === undefined ? name : `${name} (${scope})`)
  const lineage = useQuery({
    ...lineageQuery(runId, step),
    placeholderData: (previous) => previous,
  })
  // `session=` in the URL opens the tab on that session's rollout
  const [filter, setFilter] = useState(session === null ? '' : session.replace(/\.a\d+$/, ''))
  const [onlyInteresting, setOnlyInteresting] = useState(false)
  const [asGraph, setAsGraph] = useState(initialView === 'graph')
  const rollouts = useMemo(() => {
    const all = lineage.data?.rollouts ?? []
    const needle = filter.trim().toLowerCase()
    const kept = all.filter(
      (r) =>
        (!onlyInteresting || interesting(r)) &&
        (!needle || r.rollout_id.toLowerCase().includes(needle) || r.environment.includes(needle)),
    )
    // retired, fenced and continued rollouts first: in a large fleet they are what one looks for
    return [...kept.filter(interesting), ...kept.filter((r) => !interesting(r))]
  }, [lineage.data, filter, onlyInteresting])

  if (lineage.status === 'pending') return <Loading what="the lineage" minHeight={240} />
  if (lineage.status === 'error')
    return (
      <ErrorNotice
        what="load the lineage"
        error={lineage.error}
        onRetry={() => void lineage.refetch()}
      />
    )
  const shown = rollouts.slice(0, 300)
  return (
    <div className="lineage" data-testid="lineage-tree">
      <div className="table-tools">
        <input
          type="search"
          aria-label={named('Filter rollouts')}
          placeholder="Filter rollouts"
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
        />
        <label className="check">
          <input
            type="checkbox"
            aria-label={
              scope === undefined ? undefined : named('Only retired, fenced or continued')
            }
            checked={onlyInteresting}
            onChange={(e) => setOnlyInteresting(e.currentTarget.checked)}
          />{' '}
          Only retired, fenced or continued
        </label>
        <span className="view-toggle" role="group" aria-label="Lineage view">
          <button
            type="button"
            aria-pressed={asGraph}
            aria-label={scope === undefined ? undefined : named('Graph')}
            onClick={() => setAsGraph(true)}
          >
            Graph
          </button>
          <button
            type="button"
            aria-pressed={!asGraph}
            aria-label={scope === undefined ? undefined : named('List')}
            onClick={() => setAsGraph(false)}
          >
            List
          </button>
        </span>
        <span className="muted">
          {rollouts.length} rollouts
          {!asGraph && rollouts.length > shown.length
            ? ` (first ${shown.length} listed; filter to narrow, or use the graph)`
            : ''}
        </span>
      </div>
      {rollouts.length === 0 ? (
        <Empty>
          {lineage.data.rollouts.length === 0
            ? 'No rollout has started at this step.'
            : 'No rollout matches.'}
        </Empty>
      ) : asGraph ? (
        <LineageGraph rollouts={rollouts} statusNote={STATUS_NOTE} onSeek={onSeek} />
      ) : (
        <LineageTree rollouts={shown} statusNote={STATUS_NOTE} onSeek={onSeek} />
      )}
    </div>
  )
}

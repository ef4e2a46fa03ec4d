import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { RunView } from '@cutover/core/contracts'
import { deleteRun, runsQuery } from '../api/queries.ts'
import { runKeys } from '../api/runKeys.ts'
import { Link } from '../router/Link.tsx'
import { routeHref } from '../router/route.ts'
import { Empty } from './Empty.tsx'
import { ErrorNotice } from './ErrorNotice.tsx'
import { Loading } from './Loading.tsx'
import { InvariantSummary } from './RunHeader.tsx'
import { StatusBadge } from './StatusBadge.tsx'

/** The runs on this server, newest first: status, invariants, a link in, and delete. */
export function RunList() {
  const runs = useQuery(runsQuery())
  if (runs.status === 'pending') return <Loading what="runs" minHeight={120} />
  if (runs.status === 'error') return <ErrorNotice what="list the runs" error={runs.error} onRetry={() => void runs.refetch()} />
  if (runs.data.runs.length === 0) return <Empty>No runs yet. Pick a scenario above, or start one with the form.</Empty>
  const sorted = [...runs.data.runs].sort((a, b) => b.created_at.localeCompare(a.created_at))
  return (
    <table className="data-table run-list">
      <thead>
        <tr>
          <th scope="col">Run</th>
          <th scope="col">Scenario</th>
          <th scope="col">Seed</th>
          <th scope="col" className="num">Rollouts</th>
          <th scope="col" className="num">Events</th>
          <th scope="col">Status</th>
          <th scope="col">Invariants</th>
          <th scope="col">Created</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {sorted.map((run) => (
          <RunRow key={run.id} run={run} />
        ))}
      </tbody>
    </table>
  )
}

function RunRow({ run }: { run: RunView }) {
  const client = useQueryClient()
  const remove = useMutation({
    mutationFn: () => deleteRun(run.id),
    onSuccess: () => {
      client.setQueryData(runsQuery().queryKey, (old) => (old ? { runs: old.runs.filter((r) => r.id !== run.id) } : old))
      // Everything of the run (view, events, steps, sessions…) sits under its detail key.
      client.removeQueries({ queryKey: runKeys.detail(run.id) })
    },
  })
  return (
    <tr data-run={run.id}>
      <td>
        <Link className="mono" href={routeHref({ page: 'run', id: run.id, step: null, tab: 'sessions', session: null })}>
          {run.id}
        </Link>
      </td>
      <td>{run.scenario}</td>
      <td className="mono seed" title={run.seed}>{run.seed}</td>
      <td className="num">{run.rollouts}</td>
      <td className="num">{run.events}</td>
      <td>
        <StatusBadge status={run.status} />
      </td>
      <td>
        <InvariantSummary run={run} />
      </td>
      <td className="small muted">{run.created_at.replace('T', ' ').slice(0, 19)}</td>
      <td>
        <button type="button" className="link-button danger" onClick={() => remove.mutate()} disabled={remove.isPending} aria-label={`Delete run ${run.id}`}>
          {remove.isPending ? 'Deleting…' : 'Delete'}
        </button>
        {remove.isError && <ErrorNotice what="delete the run" error={remove.error} />}
      </td>
    </tr>
  )
}

import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { RunView } from '@cutover/core/contracts'
import { deleteRun, runsQuery } from '../api/queries.ts'
import { runKeys } from '../api/queryKeys.ts'
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
  if (runs.status === 'error')
    return (
      <ErrorNotice what="list the runs" error={runs.error} onRetry={() => void runs.refetch()} />
    )
  if (runs.data.runs.length === 0)
    return <Empty>No runs yet. Pick a scenario above, or start one with the form.</Empty>
  const sorted = [...runs.data.runs].sort((a, b) => b.created_at.localeCompare(a.created_at))
  return (
    <table className="data-table run-list">
      <thead>
        <tr>
          <th scope="col">Run</th>
          <th scope="col">Scenario</th>
          <th scope="col">Seed</th>
          <th scope="col" className="num">
            Rollouts
          </th>
          <th scope="col" className="num">
            Events
          </th>
          <th scope="col">Faults</th>
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

/** A run's faults in one cell: the kinds, the bug, and how many checkpoints a fault damaged. */
export function faultsCell(
  run: Pick<RunView, 'faults' | 'bug' | 'damaged' | 'inert_faults'>,
): string {
  const parts: string[] = []
  if (run.faults.length > 0) parts.push(run.faults.map((f) => f.kind).join(', '))
  if (run.inert_faults.length > 0) parts.push(`${run.inert_faults.length} without effect`)
  if (run.damaged.length > 0)
    parts.push(`${run.damaged.length} damaged checkpoint${run.damaged.length === 1 ? '' : 's'}`)
  if (run.bug !== undefined) parts.push(`bug: ${run.bug}`)
  return parts.length === 0 ? 'none' : parts.join(' · ')
}

function RunRow({ run }: { run: RunView }) {
  const client = useQueryClient()
  const [confirming, setConfirming] = useState(false)
  const remove = useMutation({
    mutationFn: () => deleteRun(run.id),
    onSuccess: () => {
      client.setQueryData(runsQuery().queryKey, (old) =>
        old ? { runs: old.runs.filter((r) => r.id !== run.id) } : old,
      )
      // Everything of the run (view, events, steps, sessions…) sits under its detail key.
      client.removeQueries({ queryKey: runKeys.detail(run.id) })
    },
  })
  return (
    <tr data-run={run.id}>
      <td>
        <Link
          className="mono"
          href={routeHref({ page: 'run', id: run.id, step: null, tab: 'sessions', session: null })}
        >
          {run.id}
        </Link>
      </td>
      <td>
        {run.scenario}
        {run.kind === 'fleet' && (
          <>
            {' '}
            <span
              className="badge"
              data-testid="run-kind"
              data-kind="fleet"
              title="recorded by cutover fleet from real participant processes"
            >
              processes
            </span>
          </>
        )}
      </td>
      <td className="mono seed" title={run.seed}>
        {run.seed}
      </td>
      <td className="num">{run.rollouts}</td>
      <td className="num">{run.events}</td>
      <td className="small faults-cell" data-testid="run-faults">
        {faultsCell(run)}
      </td>
      <td>
        <StatusBadge status={run.status} queuePosition={run.queue_position} />
      </td>
      <td>
        <InvariantSummary run={run} />
      </td>
      <td className="small muted">{run.created_at.replace('T', ' ').slice(0, 19)}</td>
      <td>
        {confirming ? (
          <span
            className="confirm-delete"
            role="group"
            aria-label={`Confirm deleting run ${run.id}`}
          >
            <span className="small">Delete for good?</span>{' '}
            <button
              type="button"
              className="link-button danger"
              onClick={() => remove.mutate()}
              disabled={remove.isPending}
              aria-label={`Yes, delete run ${run.id}`}
            >
              {remove.isPending ? 'Deleting…' : 'Delete'}
            </button>{' '}
            <button
              type="button"
              className="link-button"
              onClick={() => setConfirming(false)}
              disabled={remove.isPending}
            >
              Keep
            </button>
          </span>
        ) : (
          <button
            type="button"
            className="link-button danger"
            onClick={() => setConfirming(true)}
            aria-label={`Delete run ${run.id}`}
          >
            Delete
          </button>
        )}
        {remove.isError && <ErrorNotice what="delete the run" error={remove.error} />}
      </td>
    </tr>
  )
}

import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { RunView } from '@cutover/core/contracts'
import { INVARIANT_IDS } from '@cutover/core/contracts'
import { directoriesQuery } from '../api/directoryQueries.ts'
import { bugsQuery, deleteRun, runsQuery, scenariosQuery } from '../api/queries.ts'
import {
  KIND_BADGES,
  NO_RUN_FILTERS,
  RUN_KIND_FILTERS,
  RUN_STATUS_FILTERS,
  directoryEntry,
  filterRuns,
  runEntry,
} from '../lib/runFilters.ts'
import type { RunEntry, RunFilters } from '../lib/runFilters.ts'
import { runKeys } from '../api/queryKeys.ts'
import { Link } from '../router/Link.tsx'
import { routeHref } from '../router/route.ts'
import { Empty } from './Empty.tsx'
import { ErrorNotice } from './ErrorNotice.tsx'
import { Loading } from './Loading.tsx'
import { InvariantSummary } from './RunHeader.tsx'
import { StatusBadge } from './StatusBadge.tsx'

/** The runs on this server, newest first: filters and a search box, status, invariants, delete. */
export function RunList() {
  const runs = useQuery(runsQuery())
  const directories = useQuery(directoriesQuery())
  const [filters, setFilters] = useState<RunFilters>(NO_RUN_FILTERS)
  const scenarios = useQuery(scenariosQuery())
  const bugs = useQuery(bugsQuery())
  if (runs.status === 'pending') return <Loading what="runs" minHeight={120} />
  if (runs.status === 'error')
    return (
      <ErrorNotice what="list the runs" error={runs.error} onRetry={() => void runs.refetch()} />
    )
  const entries = [
    ...runs.data.runs.map(runEntry),
    ...(directories.data?.directories ?? []).map(directoryEntry),
  ]
  if (entries.length === 0)
    return <Empty>No runs yet. Pick a scenario in the gallery, or start one with the form.</Empty>
  const shown = filterRuns(entries, filters)
  const set = (key: keyof RunFilters) => (value: string) => setFilters({ ...filters, [key]: value })
  const scenarioNames = scenarios.data?.scenarios.map((s) => s.name) ?? [
    ...new Set(entries.map((e) => e.scenario).filter(Boolean)),
  ]
  const filtered = Object.values(filters).some((v) => v !== '')
  return (
    <div className="runs-list" data-testid="runs-list">
      <div className="runs-filters" role="search" aria-label="Filter the runs">
        <input
          type="search"
          data-testid="runs-filter"
          aria-label="Search runs by id or text"
          placeholder="Search: id, scenario, seed, fault, bug, invariant…"
          value={filters.q}
          onChange={(e) => set('q')(e.currentTarget.value)}
        />
        <FilterSelect
          label="Scenario filter"
          value={filters.scenario}
          onChange={set('scenario')}
          options={scenarioNames}
        />
        <FilterSelect
          label="Status filter"
          value={filters.status}
          onChange={set('status')}
          options={RUN_STATUS_FILTERS}
        />
        <FilterSelect
          label="Kind filter"
          value={filters.kind}
          onChange={set('kind')}
          options={RUN_KIND_FILTERS}
          names={KIND_BADGES}
        />
        <FilterSelect
          label="Bug filter"
          value={filters.bug}
          onChange={set('bug')}
          options={['none', ...(bugs.data?.bugs.map((b) => b.name) ?? [])]}
          names={{ none: 'no bug' }}
        />
        <FilterSelect
          label="Failing invariant filter"
          value={filters.invariant}
          onChange={set('invariant')}
          options={INVARIANT_IDS}
        />
        <span className="muted small" aria-live="polite" data-testid="runs-count">
          {shown.length === entries.length
            ? `${entries.length} run${entries.length === 1 ? '' : 's'}`
            : `${shown.length} of ${entries.length} runs`}
        </span>
        {filtered && (
          <button type="button" className="link-button" onClick={() => setFilters(NO_RUN_FILTERS)}>
            Clear filters
          </button>
        )}
      </div>
      {shown.length === 0 ? (
        <Empty>No run matches these filters.</Empty>
      ) : (
        <div className="data-table-scroll">
          <table className="data-table run-list">
            <thead>
              <tr>
                <th scope="col">Run</th>
                <th scope="col">Scenario</th>
                <th scope="col">Kind</th>
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
              {shown.map((entry) =>
                entry.run ? (
                  <RunRow key={entry.id} run={entry.run} />
                ) : (
                  <DirectoryRow key={entry.id} entry={entry} />
                ),
              )}
            </tbody>
          </table>
        </div>
      )}
    </div>
  )
}

/** One filter of the runs list: "any" or one of `options`. */
function FilterSelect({
  label,
  value,
  onChange,
  options,
  names = {},
}: {
  label: string
  value: string
  onChange: (value: string) => void
  options: readonly string[]
  names?: { readonly [option: string]: string }
}) {
  return (
    <label className="small">
      {label.replace(/ filter$/, '')}{' '}
      <select aria-label={label} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">any</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {names[o] ?? o}
          </option>
        ))}
      </select>
    </label>
  )
}

/** The kind of a run as a badge (`recorded from a real controller`, `processes`, …). */
function KindBadge({ kind }: { kind: string }) {
  return (
    <span className={`badge kind-${kind}`} data-testid="run-kind" data-kind={kind}>
      {KIND_BADGES[kind] ?? kind}
    </span>
  )
}

/** A checkpoint directory opened read-only, in the list with the runs. */
function DirectoryRow({ entry }: { entry: RunEntry }) {
  return (
    <tr data-run={entry.id} data-testid="run-row" data-run-id={entry.id} data-kind="directory">
      <td>
        <Link
          className="mono"
          href={routeHref({
            page: 'run',
            id: entry.id,
            step: null,
            tab: 'sessions',
            session: null,
          })}
        >
          {entry.id}
        </Link>
      </td>
      <td className="mono small path-cell" title={entry.path}>
        {entry.path}
      </td>
      <td>
        <KindBadge kind="directory" />
      </td>
      <td />
      <td className="num" />
      <td className="num" />
      <td className="small muted">read-only</td>
      <td>
        <StatusBadge status="complete" />
      </td>
      <td className="small muted">see Manifests</td>
      <td className="small muted">{entry.created_at.replace('T', ' ').slice(0, 19)}</td>
      <td />
    </tr>
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
    <tr data-run={run.id} data-testid="run-row" data-run-id={run.id} data-kind={run.kind}>
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
        {run.parent !== undefined && <span className="muted small"> · from {run.parent}</span>}
      </td>
      <td>
        <KindBadge kind={run.kind} />
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
        <StatusBadge status={run.status} queuePosition={run.queue_position} reason={run.error} />
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

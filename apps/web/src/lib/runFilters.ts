import type { RunView } from '@cutover/core/contracts'
import { INVARIANT_IDS } from '@cutover/core/contracts'

/**
 * Kinds and statuses the runs list filters by. Wider than this build's RunView: a run recorded
 * from a real controller (`recorded`) and a stored run whose run.json fails its digest
 * (`damaged`) come from other parts of the server, and list the same way.
 */
export const RUN_KIND_FILTERS = ['simulated', 'fleet', 'recorded', 'directory'] as const
export const RUN_STATUS_FILTERS = ['running', 'complete', 'failed', 'damaged'] as const

/** What a kind is called in the list (its badge). */
export const KIND_BADGES: { readonly [kind: string]: string } = {
  simulated: 'simulated',
  fleet: 'processes',
  recorded: 'recorded from a real controller',
  directory: 'checkpoint directory',
}

/** The runs list's filters; '' is "any". */
export interface RunFilters {
  /** Words every one of which is in the run's id, scenario, seed, faults, bug, status or path. */
  readonly q: string
  readonly scenario: string
  readonly status: string
  readonly kind: string
  readonly bug: string
  /** A failing invariant's id. */
  readonly invariant: string
}

export const NO_RUN_FILTERS: RunFilters = {
  q: '',
  scenario: '',
  status: '',
  kind: '',
  bug: '',
  invariant: '',
}

/** One row of the runs list: a run of the API, or a checkpoint directory opened read-only. */
export interface RunEntry {
  readonly id: string
  readonly kind: string
  readonly scenario: string
  readonly status: string
  readonly bug: string | null
  readonly failing: readonly string[]
  readonly created_at: string
  /** Everything the search box looks in, lower case. */
  readonly text: string
  readonly run?: RunView
  readonly path?: string
}

/** A run as a row of the list. */
export function runEntry(run: RunView): RunEntry {
  const failing = INVARIANT_IDS.filter((id) => run.invariants[id] === 'fail')
  const faults = run.faults.map((f) => JSON.stringify(f)).join(' ')
  return {
    id: run.id,
    kind: run.kind,
    scenario: run.scenario,
    status: run.status,
    bug: run.bug ?? null,
    failing,
    created_at: run.created_at,
    text: [
      run.id,
      run.kind,
      KIND_BADGES[run.kind] ?? '',
      run.scenario,
      `seed ${run.seed}`,
      run.status,
      faults,
      run.bug ?? '',
      run.parent ?? '',
      ...failing,
    ]
      .join(' ')
      .toLowerCase(),
    run,
  }
}

/** A checkpoint directory opened read-only as a row of the list. */
export function directoryEntry(dir: { id: string; path: string; created_at: string }): RunEntry {
  return {
    id: dir.id,
    kind: 'directory',
    scenario: '',
    status: 'complete',
    bug: null,
    failing: [],
    created_at: dir.created_at,
    text: `${dir.id} directory checkpoint ${dir.path}`.toLowerCase(),
    path: dir.path,
  }
}

/** True when the row passes every filter. */
export function runMatches(entry: RunEntry, filters: RunFilters): boolean {
  if (filters.scenario !== '' && entry.scenario !== filters.scenario) return false
  if (filters.status !== '' && entry.status !== filters.status) return false
  if (filters.kind !== '' && entry.kind !== filters.kind) return false
  if (
    filters.bug !== '' &&
    (filters.bug === 'none' ? entry.bug !== null : entry.bug !== filters.bug)
  )
    return false
  if (filters.invariant !== '' && !entry.failing.includes(filters.invariant)) return false
  const words = filters.q.toLowerCase().split(/\s+/).filter(Boolean)
  return words.every((w) => entry.text.includes(w))
}

/** The rows newest first, those the filters keep. */
export function filterRuns(entries: readonly RunEntry[], filters: RunFilters): RunEntry[] {
  return entries
    .filter((e) => runMatches(e, filters))
    .sort((a, b) => b.created_at.localeCompare(a.created_at))
}

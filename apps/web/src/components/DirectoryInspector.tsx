import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { directoryRunQuery } from '../api/directoryQueries.ts'
import { Link } from '../router/Link.tsx'
import type { InspectorView } from '../router/route.ts'
import { DirectoryBoundariesTab } from './DirectoryBoundariesTab.tsx'
import { DirectoryLineageTab } from './DirectoryLineageTab.tsx'
import { DirectoryManifestsTab } from './DirectoryManifestsTab.tsx'
import { DirectorySessionsTab } from './DirectorySessionsTab.tsx'
import { DirectoryTablesTab } from './DirectoryTablesTab.tsx'
import { DirectoryTimelineTab } from './DirectoryTimelineTab.tsx'
import { ErrorNotice } from './ErrorNotice.tsx'
import { Loading } from './Loading.tsx'
import { Tabs } from './Tabs.tsx'

const DIRECTORY_TABS = [
  'sessions',
  'tables',
  'boundaries',
  'lineage',
  'manifests',
  'timeline',
] as const
type DirectoryTab = (typeof DIRECTORY_TABS)[number]
const LABELS: { readonly [T in DirectoryTab]: string } = {
  sessions: 'Sessions',
  tables: 'Tables',
  boundaries: 'Boundaries',
  lineage: 'Lineage',
  manifests: 'Manifests',
  timeline: 'Timeline',
}

/**
 * A checkpoint directory opened read-only as a run (post-mortem). There is no trace, so no diagram
 * or step list: the page says so and shows the directory's own timeline instead. A damaged
 * directory opens like any other, its problems shown per file. `tab` and `session` follow the URL
 * where the run inspector has the same tab.
 */
export function DirectoryInspector({
  runId,
  view,
  onView,
}: {
  runId: string
  view: InspectorView
  onView: (view: InspectorView) => void
}) {
  const run = useQuery(directoryRunQuery(runId))
  const [file, setFile] = useState<string | null>(null)
  const [tab, setTab] = useState<DirectoryTab>(
    (DIRECTORY_TABS as readonly string[]).includes(view.tab)
      ? (view.tab as DirectoryTab)
      : 'sessions',
  )
  if (run.status === 'pending') return <Loading what={`directory run ${runId}`} minHeight={600} />
  if (run.status === 'error')
    return (
      <ErrorNotice
        what={`open directory run ${runId}`}
        error={run.error}
        onRetry={() => void run.refetch()}
      />
    )
  const data = run.data
  const select = (next: DirectoryTab) => {
    setTab(next)
    if (next === 'sessions' || next === 'tables' || next === 'lineage' || next === 'manifests')
      onView({ ...view, tab: next })
  }
  const selectSession = (session: string) => onView({ ...view, session })
  // the problem badge and a damaged session open the Manifests tab at the file
  const openFile = (path: string | null) => {
    setFile(path)
    select('manifests')
  }
  const count = data.problems.length
  return (
    <div className="inspector directory-inspector">
      <header className="run-head">
        <nav className="crumbs" aria-label="Breadcrumb">
          <Link href="/">Runs</Link> <span aria-hidden="true">/</span>{' '}
          <span className="mono">{data.id}</span>
        </nav>
        <h1>
          Checkpoint directory <span className="mono dir-path">{data.path}</span>
        </h1>
        <div className="run-verdict">
          <span className="badge">read-only</span>
          {data.checkpoint_id && (
            <span className="muted small">
              checkpoint <span className="mono">{data.checkpoint_id}</span>
            </span>
          )}
          {data.valid ? (
            <span className="inv-summary is-pass" data-testid="directory-verdict">
              ✓ verifies
            </span>
          ) : (
            <button
              type="button"
              className="inv-summary is-fail badge-button problem-badge"
              data-testid="directory-verdict"
              title="Show the problems in the Manifests tab"
              onClick={() => openFile(data.problems.find((p) => p.path !== null)?.path ?? null)}
            >
              ✗ {count} problem{count === 1 ? '' : 's'} →
            </button>
          )}
          <span className="muted small">
            {data.sessions.length} sessions · {data.boundaries.length} boundaries ·{' '}
            {data.files.length} files
          </span>
        </div>
        <p className="notice notice-empty no-trace">
          A bare directory has no trace, so there is no diagram or step list to scrub. The{' '}
          <strong>Timeline</strong> tab shows the directory&apos;s own order instead: its files in
          the order the commit protocol writes them, as far as its manifests tell it.
        </p>
      </header>
      <Tabs<DirectoryTab> tabs={DIRECTORY_TABS} labels={LABELS} selected={tab} onSelect={select}>
        {tab === 'sessions' ? (
          <DirectorySessionsTab
            run={data}
            selected={view.session}
            onSelect={selectSession}
            onOpenTables={() => select('tables')}
            onOpenFile={openFile}
          />
        ) : tab === 'tables' ? (
          <DirectoryTablesTab run={data} selected={view.session} onSelect={selectSession} />
        ) : tab === 'boundaries' ? (
          <DirectoryBoundariesTab run={data} />
        ) : tab === 'lineage' ? (
          <DirectoryLineageTab lineage={data.lineage} />
        ) : tab === 'manifests' ? (
          <DirectoryManifestsTab key={file ?? ''} run={data} file={file} />
        ) : (
          <DirectoryTimelineTab run={data} />
        )}
      </Tabs>
    </div>
  )
}

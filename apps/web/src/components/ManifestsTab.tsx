import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import type { CheckpointFileView, CheckpointView, RunStatus } from '@cutover/core/contracts'
import { checkpointFileQuery, checkpointsQuery } from '../api/queries.ts'
import { FILE_STATUS } from '../lib/fileStatus.ts'
import { fileTree } from '../lib/fileTree.ts'
import type { FileTreeNode } from '../lib/fileTree.ts'
import { Empty } from './Empty.tsx'
import { ErrorNotice } from './ErrorNotice.tsx'
import { FileContent } from './FileContent.tsx'
import { Loading } from './Loading.tsx'
import { TokenSegments } from './TokenSegments.tsx'

function Folder({
  node,
  selected,
  onSelect,
  depth,
}: {
  node: FileTreeNode<CheckpointFileView>
  selected: string | null
  onSelect: (path: string) => void
  depth: number
}) {
  return (
    <ul aria-label={depth === 0 ? 'Checkpoint files' : undefined} className="tree file-tree">
      {node.folders.map((folder) => (
        <li key={folder.path}>
          <span className="tree-label folder">{folder.name}/</span>
          <Folder node={folder} selected={selected} onSelect={onSelect} depth={depth + 1} />
        </li>
      ))}
      {node.files.map(({ name, file }) => (
        <li key={file.path} className={`file status-${file.status}`}>
          <button
            type="button"
            aria-pressed={file.path === selected}
            className={`file-button${file.path === selected ? ' is-selected' : ''}`}
            onClick={() => onSelect(file.path)}
          >
            <span className="mono">{name}</span>
            <span className={`file-status status-${file.status}`} title={`sha256 ${file.sha256}`}>
              {FILE_STATUS[file.status]}
              {file.status === 'ok' ? ` · ${file.sha256.slice(0, 8)}…` : ''}
            </span>
          </button>
        </li>
      ))}
    </ul>
  )
}

function FileView({
  runId,
  checkpoint,
  file,
}: {
  runId: string
  checkpoint: CheckpointView
  file: CheckpointFileView
}) {
  const content = useQuery({
    ...checkpointFileQuery(runId, checkpoint.cid, file.path),
    enabled: file.status !== 'missing',
  })
  let body
  if (file.status === 'missing')
    body = <Empty>The manifest lists this file, but it is not in the directory.</Empty>
  else if (content.status === 'pending') body = <Loading what={file.path} />
  else if (content.status === 'error')
    body = <ErrorNotice what={`read ${file.path}`} error={content.error} />
  else body = <FileContent path={file.path} text={content.data} />
  return (
    <section className="file-view" aria-label={`File ${file.path}`}>
      <header className="panel-head">
        <h3 className="mono">{file.path}</h3>
        <span className={`file-status status-${file.status}`}>{FILE_STATUS[file.status]}</span>
      </header>
      <p className="muted mono small">
        sha256 {file.sha256} · {file.bytes.toLocaleString('en')} bytes
      </p>
      {body}
    </section>
  )
}

/** `r004.a1` → `r004.`: the prefix of every file of that rollout's boundaries and snapshots. */
const sessionFilePrefix = (session: string | null): string =>
  session === null ? '' : `${session.replace(/\.a\d+$/, '')}.`

/**
 * The Manifests tab: each checkpoint directory's files with digest status (and the digest), its
 * token-store segments with theirs, a search over paths (starting at the selected session's
 * files), and a JSON viewer.
 */
export function ManifestsTab({
  runId,
  status,
  session = null,
}: {
  runId: string
  status: RunStatus
  session?: string | null
}) {
  const checkpoints = useQuery(checkpointsQuery(runId, status))
  const [chosen, setChosen] = useState<{ cid: string; path: string } | null>(null)
  const [search, setSearch] = useState(sessionFilePrefix(session))
  const needle = search.trim().toLowerCase()

  let body
  if (checkpoints.status === 'pending')
    body = <Loading what="the checkpoint directories" minHeight={240} />
  else if (checkpoints.status === 'error')
    body = (
      <ErrorNotice
        what="list the checkpoint directories"
        error={checkpoints.error}
        onRetry={() => void checkpoints.refetch()}
      />
    )
  else if (checkpoints.data.checkpoints.length === 0)
    body = (
      <Empty>
        {status === 'running'
          ? 'No checkpoint has been committed yet.'
          : 'This run committed no checkpoint directory.'}
      </Empty>
    )
  else {
    const list = checkpoints.data.checkpoints
    const current = list.find((c) => c.cid === chosen?.cid) ?? list[0]
    const matching =
      current?.files.filter((f) => needle === '' || f.path.toLowerCase().includes(needle)) ?? []
    const file =
      current?.files.find((f) => f.path === chosen?.path) ??
      (needle !== '' ? matching[0] : undefined) ??
      current?.files.find((f) => f.path === 'checkpoint.json') ??
      null
    body = current && (
      <div className="manifests-grid">
        <div className="manifests-nav">
          {list.length > 1 && (
            <label>
              Directory{' '}
              <select
                value={current.cid}
                onChange={(e) => setChosen({ cid: e.currentTarget.value, path: 'checkpoint.json' })}
              >
                {list.map((c) => (
                  <option key={c.cid} value={c.cid}>
                    {c.cid}
                  </option>
                ))}
              </select>
            </label>
          )}
          <p className={`verify ${current.valid ? 'is-valid' : 'is-invalid'}`}>
            <strong>{current.valid ? '✓ verifies' : '✗ does not verify'}</strong>
            {current.damaged && <span className="badge status-failed">damaged on purpose</span>}
            <br />
            <span className="mono small" title={current.path}>
              {current.checkpoint_id}
            </span>
          </p>
          {current.problems.length > 0 && (
            <ul className="problems">
              {current.problems.map((p, i) => (
                <li key={i}>
                  <code className="error-code">{p.code}</code>{' '}
                  {p.path && current.files.some((f) => f.path === p.path) ? (
                    <button
                      type="button"
                      className="link-button mono"
                      onClick={() => setChosen({ cid: current.cid, path: p.path ?? '' })}
                    >
                      {p.path}
                    </button>
                  ) : (
                    p.path && <span className="mono">{p.path}</span>
                  )}{' '}
                  <span className="muted">{p.message}</span>
                </li>
              ))}
            </ul>
          )}
          <TokenSegments
            segments={current.segments ?? []}
            selected={file?.path ?? null}
            onSelect={(path) => setChosen({ cid: current.cid, path })}
          />
          <input
            type="search"
            aria-label="Search files"
            placeholder="Search files (e.g. r4. or manifest)"
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
          />
          {needle !== '' && matching.length === 0 && (
            <p className="muted small">No file path contains “{search}”.</p>
          )}
          <Folder
            node={fileTree(matching)}
            selected={file?.path ?? null}
            onSelect={(path) => setChosen({ cid: current.cid, path })}
            depth={0}
          />
        </div>
        {file ? (
          <FileView runId={runId} checkpoint={current} file={file} />
        ) : (
          <Empty>Select a file.</Empty>
        )}
      </div>
    )
  }
  return (
    <div className="manifests" data-testid="manifests-view">
      {body}
    </div>
  )
}

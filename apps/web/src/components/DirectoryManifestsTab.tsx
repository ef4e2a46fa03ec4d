import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { DirectoryRunView } from '@cutover/core/contracts'
import { directoryFileQuery } from '../api/directoryQueries.ts'
import { ErrorNotice } from './ErrorNotice.tsx'
import { FileContent } from './FileContent.tsx'
import { GenerationCuts } from './GenerationCuts.tsx'
import { Loading } from './Loading.tsx'
import { TokenSegments } from './TokenSegments.tsx'
import { fileTree } from '../lib/fileTree.ts'
import type { FileTreeNode } from '../lib/fileTree.ts'

type File = DirectoryRunView['files'][number]

function Folder({
  node,
  depth,
  selected,
  onSelect,
}: {
  node: FileTreeNode<File>
  depth: number
  selected: string | null
  onSelect: (path: string) => void
}) {
  return (
    <ul aria-label={depth === 0 ? 'Directory files' : undefined} className="tree file-tree">
      {node.folders.map((folder) => (
        <li key={folder.path}>
          <span className="tree-label folder">{folder.name}/</span>
          <Folder node={folder} depth={depth + 1} selected={selected} onSelect={onSelect} />
        </li>
      ))}
      {node.files.map(({ name, file }) => (
        <li
          key={file.path}
          className="file"
          data-path={file.path}
          data-problems={file.problems.join(' ')}
        >
          <button
            type="button"
            aria-pressed={file.path === selected}
            className={`file-button${file.path === selected ? ' is-selected' : ''}`}
            onClick={() => onSelect(file.path)}
            disabled={file.kind !== 'file'}
          >
            <span className="mono">{name}</span>
            <span
              className={`file-status ${file.problems.length > 0 ? 'status-digest_mismatch' : ''}`}
            >
              {file.kind === 'missing'
                ? 'missing'
                : file.kind === 'symlink'
                  ? 'symlink'
                  : file.problems.length > 0
                    ? file.problems.join(', ')
                    : `${file.bytes} B · ok`}
            </span>
          </button>
        </li>
      ))}
    </ul>
  )
}

function DirectoryFile({ run, path }: { run: DirectoryRunView; path: string }) {
  const content = useQuery(directoryFileQuery(run.id, path))
  return (
    <section className="file-view" aria-label={`File ${path}`}>
      <h3 className="mono">{path}</h3>
      {content.status === 'pending' ? (
        <Loading what={path} />
      ) : content.status === 'error' ? (
        <ErrorNotice what={`read ${path}`} error={content.error} />
      ) : (
        <FileContent path={path} text={content.data} />
      )}
    </section>
  )
}

/**
 * Verification of the directory — every problem of `cutover verify` — and each file with its own
 * problems; for a generation-safe checkpoint its token-store segments with digest status and the
 * ledger's generation cuts (cut at token k), as the run's Manifests tab and Sessions detail show
 * them.
 */
export function DirectoryManifestsTab({
  run,
  file = null,
}: {
  run: DirectoryRunView
  /** The file it opens at (a problem badge's or a damaged session's). */
  file?: string | null
}) {
  const tree = fileTree(run.files)
  const [selected, setSelected] = useState<string | null>(file)
  return (
    <div className="manifests-grid" data-testid="manifests-view">
      <div className="manifests-nav">
        <div className={`verify ${run.valid ? 'is-valid' : 'is-invalid'}`}>
          <strong>
            {run.valid
              ? 'valid'
              : `invalid: ${run.problems.length} problem${run.problems.length === 1 ? '' : 's'}`}
          </strong>{' '}
          <span className="muted small">as cutover verify reports it</span>
        </div>
        <TokenSegments segments={run.segments ?? []} selected={selected} onSelect={setSelected} />
        <Folder node={tree} depth={0} selected={selected} onSelect={setSelected} />
      </div>
      <div>
        {run.problems.length === 0 ? (
          <p className="notice notice-empty">
            Every manifest, digest, and the replacement set check out.
          </p>
        ) : (
          <ul className="problem-list" aria-label="Verification problems">
            {run.problems.map((p) => (
              <li
                key={`${p.code} ${p.path ?? ''}`}
                data-testid="directory-problem"
                data-code={p.code}
                data-path={p.path ?? ''}
                className={`problem${p.path !== null && p.path === selected ? ' is-selected' : ''}`}
              >
                <code className="error-code">{p.code}</code>{' '}
                {p.path !== null &&
                run.files.some((f) => f.path === p.path && f.kind === 'file') ? (
                  <button
                    type="button"
                    className="link-button mono"
                    onClick={() => setSelected(p.path)}
                  >
                    {p.path}
                  </button>
                ) : (
                  <span className="mono">{p.path ?? '(directory)'}</span>
                )}
                <div className="small">{p.message}</div>
              </li>
            ))}
          </ul>
        )}
        <GenerationCuts cuts={run.generation_cuts ?? []} postMortem />
        {selected !== null && <DirectoryFile run={run} path={selected} />}
      </div>
    </div>
  )
}

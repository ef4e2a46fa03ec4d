import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { RecordedDirectoryView } from '@cutover/core/contracts'
import { openDirectory } from '../api/directoryQueries.ts'
import { directoryKeys } from '../api/queryKeys.ts'
import { navigate } from '../router/navigation.ts'
import { ErrorNotice } from './ErrorNotice.tsx'

/**
 * The Manifests tab of a recorded run: the checkpoint directories its commit and restore requests
 * name (docs/recording.md), whether each is there and published yet, and once it is there a way to
 * open it with the directory inspector (Manifests, Sessions, Tables, Lineage, read-only).
 */
export function RecordedDirectories({
  directories,
}: {
  directories: readonly RecordedDirectoryView[]
}) {
  const client = useQueryClient()
  const open = useMutation({
    mutationFn: openDirectory,
    onSuccess: (run) => {
      client.removeQueries({ queryKey: directoryKeys.detail(run.id) })
      client.setQueryData(directoryKeys.detail(run.id), run)
      navigate(`/runs/${run.id}?tab=manifests`)
    },
  })
  if (directories.length === 0)
    return (
      <p className="muted" data-testid="manifests-view">
        No commit or restore of this recording has named a checkpoint directory yet.
      </p>
    )
  return (
    <div data-testid="manifests-view" className="recorded-directories">
      <ul>
        {directories.map((d) => (
          <li
            key={`${d.checkpoint_id}:${d.path}`}
            data-testid="recorded-directory"
            data-exists={d.exists}
          >
            <span className="mono strong">{d.checkpoint_id}</span>{' '}
            <span className="mono dir-path">{d.path}</span>{' '}
            <span className={`badge ${d.published ? 'status-complete' : ''}`}>
              {d.exists ? (d.published ? 'published' : 'not published') : 'not there yet'}
            </span>{' '}
            <button
              type="button"
              disabled={!d.exists || open.isPending}
              onClick={() => open.mutate(d.path)}
            >
              Open in the directory inspector
            </button>
          </li>
        ))}
      </ul>
      {open.isError && <ErrorNotice what="open the checkpoint directory" error={open.error} />}
    </div>
  )
}

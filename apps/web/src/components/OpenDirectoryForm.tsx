import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { directoriesQuery, openDirectory } from '../api/directoryQueries.ts'
import { directoryKeys } from '../api/queryKeys.ts'
import { Link } from '../router/Link.tsx'
import { navigate } from '../router/navigation.ts'
import { ErrorNotice } from './ErrorNotice.tsx'

/**
 * "Open a checkpoint directory": a path on the server's machine, opened read-only as a run
 * (post-mortem). The server only opens directories under its data directory, CUTOVER_INSPECT_ROOTS
 * or those named to `cutover inspect`; a refusal shows its code and reason.
 */
export function OpenDirectoryForm() {
  const client = useQueryClient()
  const [path, setPath] = useState('')
  const opened = useQuery(directoriesQuery())
  const open = useMutation({
    mutationFn: openDirectory,
    onSuccess: (run) => {
      // re-opening re-reads the directory: what is cached of it is stale
      client.removeQueries({ queryKey: directoryKeys.detail(run.id) })
      client.setQueryData(directoryKeys.detail(run.id), run)
      void client.invalidateQueries({ queryKey: directoryKeys.list() })
      navigate(`/runs/${run.id}`)
    },
  })
  return (
    <div className="open-directory">
      <form
        data-testid="open-directory"
        className="form-row"
        onSubmit={(event) => {
          event.preventDefault()
          if (path.trim() !== '') open.mutate(path.trim())
        }}
      >
        <label>
          Directory path on the server{' '}
          <input
            type="text"
            name="path"
            className="mono path-input"
            value={path}
            onChange={(e) => setPath(e.target.value)}
            placeholder="/path/to/.cutover/runs/<run>/checkpoints/<id>"
            spellCheck={false}
            autoComplete="off"
          />
        </label>
        <button type="submit" disabled={open.isPending || path.trim() === ''}>
          {open.isPending ? 'Opening…' : 'Open read-only'}
        </button>
      </form>
      <p className="muted small">
        Opens a checkpoint directory post-mortem: its verification per file, sessions, boundaries
        and lineage. Nothing is written into it.
      </p>
      {open.isError && <ErrorNotice what={`open ${path.trim()}`} error={open.error} />}
      {opened.data && opened.data.directories.length > 0 && (
        <ul className="opened-directories" aria-label="Opened directories">
          {opened.data.directories.slice(0, 8).map((d) => (
            <li key={d.id}>
              <Link href={`/runs/${d.id}`} className="mono">
                {d.path}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

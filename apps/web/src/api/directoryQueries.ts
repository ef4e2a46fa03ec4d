import { queryOptions } from '@tanstack/react-query'
import type { DirectoryRunView, TablesView } from '@cutover/core/contracts'
import { apiFetch, apiText } from './client.ts'
import { directoryKeys } from './queryKeys.ts'

/**
 * Directory runs (docs/http-api.md): a checkpoint directory opened read-only. Keys come from
 * `directoryKeys`.
 */

const directory = (id: string) => `/api/directories/${encodeURIComponent(id)}`

/** Directory run ids: `dir` and 16 hex digits (simulated run ids are 11 base-36 characters). */
export const isDirectoryRunId = (id: string): boolean => /^dir[0-9a-f]{16}$/.test(id)

export const directoryRunQuery = (id: string) =>
  queryOptions({
    queryKey: directoryKeys.detail(id),
    queryFn: () => apiFetch<DirectoryRunView>(directory(id)),
  })

export const directoriesQuery = () =>
  queryOptions({
    queryKey: directoryKeys.list(),
    queryFn: () =>
      apiFetch<{ directories: { id: string; path: string; created_at: string }[] }>(
        '/api/directories',
      ),
  })

export const directoryTablesQuery = (id: string, key: string) =>
  queryOptions({
    queryKey: directoryKeys.tables(id, key),
    queryFn: () =>
      apiFetch<TablesView>(`${directory(id)}/sessions/${encodeURIComponent(key)}/tables`),
    staleTime: Infinity,
  })

/** One file of the directory as it is on disk (re-read when the directory is re-opened). */
export const directoryFileQuery = (id: string, path: string) =>
  queryOptions({
    queryKey: directoryKeys.file(id, path),
    queryFn: () =>
      apiText(`${directory(id)}/files/${path.split('/').map(encodeURIComponent).join('/')}`),
  })

/** `POST /api/directories`: 201 with the directory run (re-reading it when it was open already). */
export const openDirectory = (path: string) =>
  apiFetch<DirectoryRunView>('/api/directories', {
    method: 'POST',
    body: JSON.stringify({ path }),
    headers: { 'content-type': 'application/json' },
  })

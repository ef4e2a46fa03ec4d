import { queryOptions } from '@tanstack/react-query'
import type { RunDiffView } from '@cutover/core/contracts'
import { apiFetch } from './client.ts'
import { diffKeys } from './queryKeys.ts'

/** Two finished runs never change, so their diff is cached for good. */
export const runDiffQuery = (a: string, b: string) =>
  queryOptions({
    queryKey: diffKeys.pair(a, b),
    queryFn: () =>
      apiFetch<RunDiffView>(`/api/diff?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`),
    staleTime: Infinity,
  })

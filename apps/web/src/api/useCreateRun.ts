import { useMutation, useQueryClient } from '@tanstack/react-query'
import { createRun } from './queries.ts'
import type { CreateRunBody } from './queries.ts'
import { runKeys } from './queryKeys.ts'

/**
 * `POST /api/runs` as a mutation: the new run is cached under its key and the run list refetched.
 */
export function useCreateRun() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (config: CreateRunBody) => createRun(config),
    onSuccess: (created) => {
      client.setQueryData(runKeys.detail(created.id), created)
      void client.invalidateQueries({ queryKey: runKeys.list() })
    },
  })
}

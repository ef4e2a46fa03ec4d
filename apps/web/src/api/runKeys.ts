/**
 * Query keys of runs, from one factory (TanStack's key factory pattern): every key of a run starts
 * with `runKeys.detail(id)`, so removing or invalidating that prefix reaches all of the run (its
 * view, events, steps, sessions, tables, lineage, checkpoints); the list sits beside, under
 * `runKeys.list()`.
 */
export const runKeys = {
  all: ['runs'] as const,
  list: () => [...runKeys.all, 'list'] as const,
  detail: (id: string) => [...runKeys.all, 'detail', id] as const,
  events: (id: string) => [...runKeys.detail(id), 'events'] as const,
  step: (id: string, step: number, collapsed: readonly string[] = []) => [...runKeys.detail(id), 'step', step, [...collapsed].sort()] as const,
  session: (id: string, key: string, step: number) => [...runKeys.detail(id), 'session', key, step] as const,
  tables: (id: string, key: string, step: number) => [...runKeys.detail(id), 'tables', key, step] as const,
  lineage: (id: string, step: number) => [...runKeys.detail(id), 'lineage', step] as const,
  checkpoints: (id: string, status: string) => [...runKeys.detail(id), 'checkpoints', status] as const,
  checkpointFile: (id: string, cid: string, path: string) => [...runKeys.detail(id), 'checkpoint-file', cid, path] as const,
}

/** The scenario presets (they never change while the server runs). */
export const scenarioKeys = {
  all: ['scenarios'] as const,
}

import type { RouteKind } from './EnvironmentServer.ts'

/**
 * docs/protocol.md §7.1 `checkpoint_route_kind(path, method)`: non-POST, control, metrics and MCP
 * routes are untracked; the start routes (`/seed_session`, or a Gymnasium `/reset`) start a
 * session; `/verify` is terminal; every other POST is a mutation, unknown ones included, so unknown
 * stateful routes are fenced like known ones.
 */
export function checkpointRouteKind(
  path: string,
  method: string,
  startPaths: readonly string[] = ['/seed_session'],
): RouteKind {
  if (method.toUpperCase() !== 'POST') return 'untracked'
  if (path.startsWith('/ng-control/') || path === '/aggregate_metrics' || path.startsWith('/mcp'))
    return 'untracked'
  if (startPaths.includes(path)) return 'start'
  if (path === '/verify') return 'terminal'
  return 'mutation'
}

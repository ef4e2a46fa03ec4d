import type { JsonValue } from '../../json.ts'
import { callTool } from './workplaceTools.ts'
import type { WorkplaceBase, WorkplaceSession } from './WorkplaceSession.ts'

/**
 * `route_to_python_function` for a seeded session (docs/environments.md §4.1): JSON-null arguments
 * are dropped so Python defaults apply, the result is wrapped as `{output}`, and any exception
 * becomes `Error executing tool '<name>': <message>` with HTTP 200. Pure.
 */
export function routeToolCall(
  base: WorkplaceBase,
  session: WorkplaceSession,
  name: string,
  body: { readonly [k: string]: JsonValue },
): { readonly session: WorkplaceSession; readonly output: JsonValue } {
  const args: { [k: string]: JsonValue } = {}
  for (const [k, v] of Object.entries(body)) if (v !== null) args[k] = v
  const { session: next, outcome } = callTool(base, session, name, args)
  return {
    session: next,
    output:
      outcome.kind === 'value'
        ? outcome.value
        : `Error executing tool '${name}': ${outcome.message}`,
  }
}

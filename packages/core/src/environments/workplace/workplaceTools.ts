import type { JsonValue } from '../../json.ts'
import { PyError } from './python.ts'
import { analyticsTools } from './tools/analyticsTool.ts'
import { calendarTools } from './tools/calendarTool.ts'
import { companyDirectoryTools } from './tools/companyDirectoryTool.ts'
import { customerRelationshipManagerTools } from './tools/customerRelationshipManagerTool.ts'
import { emailTools } from './tools/emailTool.ts'
import { projectManagementTools } from './tools/projectManagementTool.ts'
import type { ToolDef } from './tools/ToolDef.ts'
import type { ToolEnv, WorkplaceBase, WorkplaceSession } from './WorkplaceSession.ts'

/**
 * `get_tools(all 5 toolkits)["functions"]`: company directory first, then email … crm (27
 * functions).
 */
export const WORKPLACE_TOOLS: ReadonlyMap<string, ToolDef> = new Map(
  [
    ...companyDirectoryTools,
    ...emailTools,
    ...calendarTools,
    ...analyticsTools,
    ...projectManagementTools,
    ...customerRelationshipManagerTools,
  ].map((t) => [t.name, t]),
)

/** The outcome of one tool call: its return value, or the Python exception message. */
export type ToolOutcome =
  | { readonly kind: 'value'; readonly value: JsonValue }
  | { readonly kind: 'exception'; readonly message: string }

/**
 * `functions[name](**kwargs)` against a session. Pure: returns the next session (copy-on-write;
 * unchanged tables are shared) and the outcome. Unknown names raise KeyError, unknown keywords
 * TypeError, as Python would. `kwargs` keeps JSON nulls (verify semantics); the route drops them
 * first.
 */
export function callTool(
  base: WorkplaceBase,
  session: WorkplaceSession,
  name: string,
  kwargs: { readonly [k: string]: JsonValue },
): { readonly session: WorkplaceSession; readonly outcome: ToolOutcome } {
  const def = WORKPLACE_TOOLS.get(name)
  if (!def) return { session, outcome: { kind: 'exception', message: `'${name}'` } }
  const bound: { [k: string]: JsonValue } = {}
  for (const [p, d] of def.params) bound[p] = d
  for (const [k, v] of Object.entries(kwargs)) {
    if (!def.params.some(([p]) => p === k))
      return {
        session,
        outcome: {
          kind: 'exception',
          message: `${def.owner}() got an unexpected keyword argument '${k}'`,
        },
      }
    bound[k] = v
  }
  const env: ToolEnv = {
    base,
    tables: { ...session.tables },
    sessionDurationFloat: session.sessionDurationFloat,
  }
  try {
    const value = def.run(env, bound)
    const changed =
      env.sessionDurationFloat !== session.sessionDurationFloat ||
      Object.keys(env.tables).some(
        (k) =>
          env.tables[k as keyof ToolEnv['tables']] !== session.tables[k as keyof ToolEnv['tables']],
      )
    return {
      session: changed
        ? { tables: env.tables, sessionDurationFloat: env.sessionDurationFloat }
        : session,
      outcome: { kind: 'value', value },
    }
  } catch (e) {
    if (e instanceof PyError) return { session, outcome: { kind: 'exception', message: e.message } }
    throw e
  }
}

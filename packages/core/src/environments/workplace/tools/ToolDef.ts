import type { JsonValue } from '../../../json.ts'
import type { ToolEnv } from '../WorkplaceSession.ts'

/** Bound keyword arguments: every parameter present, defaults filled in (Python None = null). */
export type ToolArgs = { readonly [name: string]: JsonValue }

/**
 * One ported tool function. `owner` is the Python qualified name (`EmailTool.send_email`), used in
 * the TypeError Python raises for an unexpected keyword argument. `run` may throw a PyError.
 */
export interface ToolDef {
  readonly name: string
  readonly owner: string
  readonly params: readonly (readonly [string, JsonValue])[]
  run(env: ToolEnv, args: ToolArgs): JsonValue
}

/** A helper to declare a tool with its Python signature. */
export function tool(
  name: string,
  owner: string,
  params: readonly (readonly [string, JsonValue])[],
  run: (env: ToolEnv, args: ToolArgs) => JsonValue,
): ToolDef {
  return { name, owner, params, run }
}

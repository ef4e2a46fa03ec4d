import type { CutoverError } from '../contracts/errors.ts'
import type { TableView } from '../contracts/views.ts'
import type { JsonValue } from '../json.ts'
import type { Result } from '../result.ts'
import { ok } from '../result.ts'
import type { WorkplaceBase } from '../environments/workplace/WorkplaceSession.ts'
import { sessionTables } from '../environments/workplace/WorkplaceSession.ts'
import { createWorkplaceCodec } from '../environments/workplace/workplaceCodec.ts'
import { diffTables } from '../environments/workplace/diffTables.ts'

/**
 * A Workplace snapshot's tables diffed against the pristine base tables, decoded by the codec
 * itself, so both forms it reads — the delta against the base and the full pandas `orient="split"`
 * tables — show the same tables. A delta against another base, or a damaged state, is the codec's
 * error. Pure.
 */
export function snapshotTables(
  base: WorkplaceBase,
  state: JsonValue,
): Result<TableView[], CutoverError> {
  const session = createWorkplaceCodec(base).restoreState(state)
  if (!session.ok) return session
  return ok(diffTables(base.tables, sessionTables(base, session.value)))
}

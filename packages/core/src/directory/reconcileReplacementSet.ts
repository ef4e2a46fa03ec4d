import type { ResourceSnapshot } from '../records/ResourceSnapshot.ts'
import type { AgentBoundaryRecord } from '../records/AgentBoundaryRecord.ts'
import { executionKey } from '../records/ExecutionIdentity.ts'
import { agentRecordPath, resourcesSnapshotPath } from './layout.ts'
import type { CheckpointProblem } from './problems.ts'
import { problem } from './problems.ts'

/**
 * The complete-replacement-set check of one resources server (docs/protocol.md §5.4): the sessions
 * with a snapshot must be exactly the executions whose agent boundary references `server_name`
 * (`incomplete_set` otherwise; a schema 1 snapshot of a session no boundary references is a
 * finished session of the earlier generation's export, docs/real-stack.md), and each snapshot's
 * `state_revision` must equal the revision the boundary recorded (`revision_mismatch`). Pure; the
 * resources participant reports any problem as `resource_revision_mismatch` and activates nothing.
 */
export function reconcileReplacementSet(
  server_name: string,
  snapshots: readonly ResourceSnapshot[],
  records: readonly AgentBoundaryRecord[],
): CheckpointProblem[] {
  const problems: CheckpointProblem[] = []
  const expected = new Map<string, { record: AgentBoundaryRecord; revision: number }>()
  for (const record of records) {
    const revision = record.resource_state_revisions[server_name]
    if (revision !== undefined) expected.set(executionKey(record), { record, revision })
  }
  const seen = new Set<string>()
  for (const snapshot of snapshots) {
    const key = executionKey(snapshot)
    seen.add(key)
    const want = expected.get(key)
    // The earlier Gym generation (ResourceSnapshot schema 1) exports every session it served,
    // finished ones too: a schema 1 snapshot no boundary references is a session that does not
    // continue — restored, never claimed. Schema 2 exports exactly the prepared set.
    if (want === undefined && snapshot.schema_version === 1) continue
    if (want === undefined) {
      problems.push(
        problem(
          'incomplete_set',
          resourcesSnapshotPath(server_name, snapshot),
          `no agent boundary references ${server_name} for session ${key}`,
        ),
      )
    } else if (want.revision !== snapshot.state_revision) {
      problems.push(
        problem(
          'revision_mismatch',
          resourcesSnapshotPath(server_name, snapshot),
          `snapshot revision ${snapshot.state_revision}, agent boundary recorded ${want.revision} for ${server_name}`,
        ),
      )
    }
  }
  for (const [key, { record }] of expected) {
    if (!seen.has(key)) {
      problems.push(
        problem(
          'incomplete_set',
          agentRecordPath(record),
          `boundary references ${server_name} but session ${key} has no snapshot`,
        ),
      )
    }
  }
  return problems
}

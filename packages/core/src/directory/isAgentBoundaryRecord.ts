import type { AgentBoundaryRecord } from '../records/AgentBoundaryRecord.ts'
import { ID_PATTERN } from '../records/idPattern.ts'
import { isCount, isJsonValue, isPlainObject } from './snapshotEnvelope.ts'

/** The record's fields (`agentBoundaryRecordSchema` is strict: exactly these). */
const FIELDS = new Set([
  'rollout_id',
  'attempt_index',
  'boundary_index',
  'turn_index',
  'boundary_kind',
  'output_items',
  'usage',
  'last_committed_model_call_id',
  'resource_state_revisions',
  'agent_state',
  'created_at',
])

/**
 * A direct check that `value` is a valid AgentBoundaryRecord, without zod: the agent's commit
 * checks every record it writes, and zod's walk of the free-form JSON fields (`output_items`,
 * `usage`, `agent_state`) was most of a 1,000-rollout agent commit. It never accepts what
 * `agentBoundaryRecordSchema` refuses (property test); a caller asks the schema whenever it says
 * no, so what is refused, and the message, stay the schema's.
 */
export function isAgentBoundaryRecord(value: unknown): value is AgentBoundaryRecord {
  if (!isPlainObject(value)) return false
  const keys = Object.keys(value)
  if (keys.length !== FIELDS.size || !keys.every((key) => FIELDS.has(key))) return false
  const r = value
  const revisions = r['resource_state_revisions']
  const agentState = r['agent_state']
  const outputs = r['output_items']
  const callId = r['last_committed_model_call_id']
  const createdAt = r['created_at']
  return (
    typeof r['rollout_id'] === 'string' &&
    ID_PATTERN.test(r['rollout_id']) &&
    isCount(r['attempt_index']) &&
    isCount(r['boundary_index']) &&
    isCount(r['turn_index']) &&
    r['boundary_kind'] === 'turn_complete' &&
    Array.isArray(outputs) &&
    outputs.every((item) => isJsonValue(item)) &&
    isJsonValue(r['usage']) &&
    (callId === null || (typeof callId === 'string' && callId.length >= 1)) &&
    isPlainObject(revisions) &&
    Object.entries(revisions).every(
      ([server, revision]) => ID_PATTERN.test(server) && isCount(revision),
    ) &&
    isPlainObject(agentState) &&
    isJsonValue(agentState) &&
    typeof createdAt === 'number' &&
    Number.isFinite(createdAt) &&
    createdAt >= 0
  )
}

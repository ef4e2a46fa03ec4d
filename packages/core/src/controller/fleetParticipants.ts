import { ENV_NAMES } from '../contracts/environments.ts'
import type { AggregateParticipant } from '../directory/manifests.ts'
import type { Fleet } from './Fleet.ts'

/**
 * The participant set of a fleet as the aggregate manifest records it (docs/protocol.md §5.5): the
 * agent, the policy model, then one resources server per environment, each `participant_id` the
 * server's name — as the real NeMo-RL controller names them, which compares the id with the name
 * its capabilities report (docs/real-stack.md). Commit writes it; restore compares the committed
 * set `(participant_id, name, kind)` with the current fleet's.
 */
export function fleetParticipants(fleet: Fleet): AggregateParticipant[] {
  return [
    {
      participant_id: fleet.agent.instanceName,
      name: fleet.agent.instanceName,
      base_url: `sim://${fleet.agent.instanceName}`,
      kind: 'agent',
      capabilities: { checkpoint_mode: 'export_restore' },
    },
    {
      participant_id: fleet.model.serverName,
      name: fleet.model.serverName,
      base_url: `sim://${fleet.model.serverName}`,
      kind: 'policy_model',
      capabilities: { checkpoint_mode: 'export_restore', workers: fleet.model.workerCount },
    },
    ...ENV_NAMES.map((env): AggregateParticipant => {
      const name = fleet.resources[env].serverName
      return {
        participant_id: name,
        name,
        base_url: `sim://${name}`,
        kind: 'resources',
        capabilities: {
          checkpoint_mode: 'export_restore',
          concurrency_contract: 'serialized_per_session',
        },
      }
    }),
  ]
}

/**
 * The difference between a committed participant set and the current fleet's, or null when equal.
 */
export function participantSetMismatch(
  committed: readonly AggregateParticipant[],
  current: readonly AggregateParticipant[],
): string | null {
  const key = (p: AggregateParticipant): string => `${p.participant_id}:${p.name}:${p.kind}`
  const a = new Set(committed.map(key))
  const b = new Set(current.map(key))
  const missing = [...a].filter((k) => !b.has(k)).sort()
  const extra = [...b].filter((k) => !a.has(k)).sort()
  if (missing.length === 0 && extra.length === 0) return null
  return `committed but not in the fleet: [${missing.join(', ')}]; in the fleet but not committed: [${extra.join(', ')}]`
}

import type { ParticipantId } from '../contracts/trace.ts'
import { sanitizeLabel } from './sanitizeLabel.ts'

/** How one trace participant appears in the diagram. */
export interface DiagramParticipant {
  /** Mermaid id: a plain identifier no grammar keyword can swallow. */
  readonly id: string
  /** Sort key: the contract's fixed participant order (docs/protocol.md §12.2). */
  readonly rank: readonly [number, number, string]
  /** The rollout a `rollout_<id>` participant stands for (it folds into `rollouts`). */
  readonly rollout: string | null
}

/**
 * The one participant every `rollout_<id>` folds into, so a 1,000-rollout fleet stays one lifeline.
 */
export const ROLLOUTS_ID = 'rollouts'

// Maps, not object literals: an id such as `toString` must not find Object.prototype's members.
const FIXED: ReadonlyMap<string, number> = new Map([
  ['controller', 0],
  ['agent', 1],
  ['policy_model', 2],
  // model_worker_<k>: 3
  ['generation_worker', 4],
  ['token_store', 5],
  // resources_<env>: 6
  ['directory', 7],
  // rollout_<id>: 8, anything else: 9
])
const ENVIRONMENT_ORDER: ReadonlyMap<string, number> = new Map([
  ['blackjack', 0],
  ['counter', 1],
  ['workplace', 2],
])
const MODEL_WORKER = /^model_worker_(\d{1,9})$/
const RESOURCES = /^resources_([a-z0-9_]{1,30})$/i
const ROLLOUT = /^rollout_(.+)$/s

/**
 * Classifies a participant id. Ids the contract names keep their own name as mermaid id (they
 * are safe identifiers); unknown ids are ranked last and get a generated id (see
 * `assignOtherIds`), because an arbitrary string could be a grammar keyword (`end`, `note`) or
 * hold characters that split the statement.
 */
export function diagramParticipant(participant: ParticipantId): DiagramParticipant {
  const fixed = FIXED.get(participant)
  if (fixed !== undefined) return { id: participant, rank: [fixed, 0, ''], rollout: null }
  const worker = MODEL_WORKER.exec(participant)
  if (worker) return { id: participant, rank: [3, Number(worker[1]), ''], rollout: null }
  const resources = RESOURCES.exec(participant)
  if (resources) {
    const env = (resources[1] ?? '').toLowerCase()
    const known = ENVIRONMENT_ORDER.get(env)
    return { id: participant, rank: [6, known ?? 3, known === undefined ? env : ''], rollout: null }
  }
  const rollout = ROLLOUT.exec(participant)
  if (rollout) return { id: ROLLOUTS_ID, rank: [8, 0, ''], rollout: rollout[1] ?? '' }
  return { id: '', rank: [9, 0, participant], rollout: null }
}

/** Orders participants by the contract's fixed order (ties by name, code-unit order). */
export function compareParticipants(a: DiagramParticipant, b: DiagramParticipant): number {
  return (
    a.rank[0] - b.rank[0] ||
    a.rank[1] - b.rank[1] ||
    (a.rank[2] < b.rank[2] ? -1 : a.rank[2] > b.rank[2] ? 1 : 0)
  )
}

/** The label of an unknown participant: its id, made safe and short. */
export function otherParticipantLabel(participant: ParticipantId): string {
  return sanitizeLabel(participant, 40) || 'unnamed'
}

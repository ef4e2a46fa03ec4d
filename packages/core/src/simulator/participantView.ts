import type { EnvName } from '../contracts/environments.ts'
import type { ParticipantView } from '../contracts/views.ts'
import type { TombstoneReader } from '../protocol/TombstoneSet.ts'
import type { World } from './World.ts'

/**
 * A participant's card as recorded after an event: the view without its tombstone list, which is
 * kept as a count of the participant's append-only tombstone log (a per-event copy of the sorted
 * list was quadratic in time and memory). `cardView` turns it back into the view.
 */
export interface ParticipantCard {
  readonly view: Omit<ParticipantView, 'tombstones'>
  readonly tombstones: TombstoneReader | null
  readonly tombstoneCount: number
}

const NONE: readonly string[] = []

/** The view a card stands for (the tombstones as they were when it was recorded). */
export function cardView(card: ParticipantCard): ParticipantView {
  const v = card.view
  // Key order as the contract lists it (views are hashed by the golden digests).
  return {
    id: v.id,
    kind: v.kind,
    phase: v.phase,
    admission: v.admission,
    inflight: v.inflight,
    tombstones: card.tombstones === null ? NONE : card.tombstones.sortedFirst(card.tombstoneCount),
    manifest_digest: v.manifest_digest,
    checkpoint_id: v.checkpoint_id,
  }
}

function card(
  view: Omit<ParticipantView, 'tombstones'>,
  tombstones: TombstoneReader | null,
): ParticipantCard {
  return { view, tombstones, tombstoneCount: tombstones === null ? 0 : tombstones.size }
}

/** What a participant card is projected from, besides the live world. */
export interface ParticipantViewSource {
  readonly world: World
  /** The controller's stage (`idle`, `preparing`, …). */
  readonly controllerStage: string
  /** The checkpoint in progress or last taken; '' before the first. */
  readonly checkpointId: string
  /** True while the controller holds dispatch. */
  readonly dispatchFrozen: boolean
  /** True for a model worker that dropped (a `missing_worker` fault). */
  isMissingWorker(worker: number): boolean
}

/**
 * One participant's card as of now (pure: reads the world, changes nothing); null for unknown ids.
 */
export function participantCard(id: string, src: ParticipantViewSource): ParticipantCard | null {
  const w = src.world
  const cid = src.checkpointId === '' ? null : src.checkpointId
  if (id === 'controller')
    return card(
      {
        id,
        kind: 'controller',
        phase: src.controllerStage,
        admission: src.dispatchFrozen ? 'frozen' : 'open',
        inflight: 0,
        manifest_digest: null,
        checkpoint_id: cid,
      },
      null,
    )
  if (id === 'policy_model') {
    const f = w.model.fence.snapshot()
    return card(
      {
        id,
        kind: 'policy_model',
        phase: f.phase,
        admission: w.model.admission,
        inflight: w.model.inflightTotal,
        manifest_digest: w.model.manifestDigest,
        checkpoint_id: f.active_checkpoint_id,
      },
      w.model.tombstoneSet,
    )
  }
  if (id === 'agent') {
    const f = w.agent.fence.snapshot()
    const running = w.agent.runningCount()
    return card(
      {
        id,
        kind: 'agent',
        phase: f.phase,
        admission: w.agent.accepting ? 'accepting' : 'paused',
        inflight: running,
        manifest_digest: w.agent.manifestDigest,
        checkpoint_id: f.active_checkpoint_id,
      },
      w.agent.tombstoneSet,
    )
  }
  if (id.startsWith('resources_')) {
    const env = id.slice('resources_'.length) as EnvName
    const r = w.resources[env]
    if (r === undefined) return null
    const f = r.fence.snapshot()
    return card(
      {
        id,
        kind: 'resources',
        phase: f.phase,
        admission: r.accepting ? 'accepting' : 'paused',
        inflight: 0,
        manifest_digest: r.manifestDigest,
        checkpoint_id: f.active_checkpoint_id,
      },
      r.tombstoneSet,
    )
  }
  if (id.startsWith('model_worker_')) {
    const f = w.model.fence.snapshot()
    const k = Number(id.slice('model_worker_'.length))
    return card(
      {
        id,
        kind: 'model_worker',
        phase: f.phase,
        admission:
          src.isMissingWorker(k) && w.model.admission !== 'accepting'
            ? 'missing'
            : w.model.admission,
        inflight: 0,
        manifest_digest: null,
        checkpoint_id: f.active_checkpoint_id,
      },
      null,
    )
  }
  if (id === 'generation_worker' || id === 'token_store' || id === 'directory')
    return card(
      {
        id,
        kind: id,
        phase: 'n/a',
        admission: 'n/a',
        inflight: 0,
        manifest_digest: null,
        checkpoint_id: cid,
      },
      null,
    )
  return null
}

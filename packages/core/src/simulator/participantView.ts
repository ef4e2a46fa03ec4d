import type { EnvName } from '../contracts/environments.ts'
import type { ParticipantView } from '../contracts/views.ts'
import type { World } from './World.ts'

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

/** One participant's card as of now (pure: reads the world, changes nothing); null for unknown ids. */
export function participantView(id: string, src: ParticipantViewSource): ParticipantView | null {
  const w = src.world
  const cid = src.checkpointId === '' ? null : src.checkpointId
  if (id === 'controller')
    return { id, kind: 'controller', phase: src.controllerStage, admission: src.dispatchFrozen ? 'frozen' : 'open', inflight: 0, tombstones: [], manifest_digest: null, checkpoint_id: cid }
  if (id === 'policy_model') {
    const f = w.model.fence.snapshot()
    return { id, kind: 'policy_model', phase: f.phase, admission: w.model.admission, inflight: w.model.inflightTotal, tombstones: w.model.tombstones(), manifest_digest: w.model.manifestDigest, checkpoint_id: f.active_checkpoint_id }
  }
  if (id === 'agent') {
    const f = w.agent.fence.snapshot()
    const running = w.agent.runningCount()
    return { id, kind: 'agent', phase: f.phase, admission: w.agent.accepting ? 'accepting' : 'paused', inflight: running, tombstones: w.agent.tombstones(), manifest_digest: w.agent.manifestDigest, checkpoint_id: f.active_checkpoint_id }
  }
  if (id.startsWith('resources_')) {
    const env = id.slice('resources_'.length) as EnvName
    const r = w.resources[env]
    if (r === undefined) return null
    const f = r.fence.snapshot()
    return { id, kind: 'resources', phase: f.phase, admission: r.accepting ? 'accepting' : 'paused', inflight: 0, tombstones: r.tombstones(), manifest_digest: r.manifestDigest, checkpoint_id: f.active_checkpoint_id }
  }
  if (id.startsWith('model_worker_')) {
    const f = w.model.fence.snapshot()
    const k = Number(id.slice('model_worker_'.length))
    return { id, kind: 'model_worker', phase: f.phase, admission: src.isMissingWorker(k) && w.model.admission !== 'accepting' ? 'missing' : w.model.admission, inflight: 0, tombstones: [], manifest_digest: null, checkpoint_id: f.active_checkpoint_id }
  }
  if (id === 'generation_worker' || id === 'token_store' || id === 'directory')
    return { id, kind: id, phase: 'n/a', admission: 'n/a', inflight: 0, tombstones: [], manifest_digest: null, checkpoint_id: cid }
  return null
}

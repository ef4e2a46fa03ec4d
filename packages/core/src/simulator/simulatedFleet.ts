import type { Fleet } from '../controller/Fleet.ts'
import type { ExecutionIdentity } from '../records/ExecutionIdentity.ts'
import type { World } from './World.ts'

/** What the simulated fleet needs from the engine: its faults, its agenda and its trace. */
export interface FleetSurroundings {
  /** True for a `missing_worker` that never acknowledges. */
  isMissingWorker(worker: number): boolean
  /** Runs `run` `delayMs` of virtual time from now. */
  later(delayMs: number, run: () => void): void
  /** Traces one cancelled request task exiting. */
  taskExited(id: ExecutionIdentity, ticket: string): void
}

/**
 * The controller's `Fleet` over one world of in-process participants. Besides forwarding each
 * control operation it plays what real processes do on their own: a missing worker never answers,
 * and the request tasks `abort_inflight` cancels exit a moment later (only then can the model
 * commit).
 */
export function simulatedFleet(world: World, around: FleetSurroundings): Fleet {
  const model = world.model
  return {
    generation: world.generation,
    agent: world.agent,
    resources: world.resources,
    model: {
      serverName: model.serverName,
      get admission() {
        return model.admission
      },
      get workerCount() {
        return model.workerCount
      },
      pause: (checkpointId, deadline) => model.pause(checkpointId, deadline),
      status: (checkpointId, now) => model.status(checkpointId, now),
      abortInflight: (checkpointId, id) => {
        const tickets = model.ticketsOf(id)
        const answer = model.abortInflight(checkpointId, id)
        around.later(1, () => {
          for (const t of tickets) if (model.taskExit(t)) around.taskExited(id, t)
        })
        return answer
      },
      commit: (checkpointId, dir, roots) => model.commit(checkpointId, dir, roots),
      commitSteps: (checkpointId, dir, roots) => model.commitSteps(checkpointId, dir, roots),
      restore: (checkpointId, dir) => model.restore(checkpointId, dir),
      restoreSteps: (checkpointId, dir) => model.restoreSteps(checkpointId, dir),
      resume: (checkpointId) => model.resume(checkpointId),
      workerAck: (worker) => (around.isMissingWorker(worker) ? undefined : model.workerAck(worker)),
    },
  }
}

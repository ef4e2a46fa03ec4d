import type { Result } from '@cutover/core'
import { err, ok } from '@cutover/core'
import type { CutoverError, RunConfig, RunView, TraceEvent } from '@cutover/core/contracts'
import { RECORDED_SCENARIO, cutoverError } from '@cutover/core/contracts'
import type { RunSlots } from './RunSlots.ts'
import type { SimulationWorkerFactory, WorkerSimulation } from './startWorkerSimulation.ts'

/** The config a stored run was simulated with (what a re-simulation runs again). */
export function storedRunConfig(view: RunView): RunConfig {
  const { scenario, seed, rollouts, deadline_ms, faults, bug, cut_mode } = view
  if (scenario === RECORDED_SCENARIO)
    throw new Error(
      `run ${view.id} was recorded from a real controller: there is nothing to re-simulate`,
    )
  return {
    scenario,
    seed,
    rollouts,
    deadline_ms,
    faults,
    ...(bug === undefined ? {} : { bug }),
    ...(cut_mode === undefined ? {} : { cut_mode }),
  }
}

/**
 * A finished run replayed in a worker: the worker holding its views, and its events (the stored
 * trace's).
 */
export interface Replayed {
  readonly worker: WorkerSimulation
  readonly events: TraceEvent[]
}

/**
 * Re-simulates a finished run in a worker thread for its views (memory directories, checked event
 * by event against its trace.json there), taking its turn in the simulation slots: the server's
 * thread never runs a simulator step, and takes the events a batch per message instead of parsing
 * the whole trace.json. `run_diverged` when the replay differs from the stored trace,
 * `run_not_found` when the run was deleted meanwhile; a worker failure is thrown.
 */
export async function replayInWorker(
  view: RunView,
  start: SimulationWorkerFactory,
  slots: RunSlots,
  cancelled: () => boolean,
): Promise<Result<Replayed, CutoverError>> {
  const slot = slots.wait()
  let worker: WorkerSimulation | undefined
  try {
    await slot.granted
    if (cancelled()) return err(cutoverError('run_not_found', `run ${view.id} was deleted`))
    const events: TraceEvent[] = []
    worker = start(
      storedRunConfig(view),
      view.id,
      (batch) => {
        for (const event of batch) events.push(event)
      },
      true,
    )
    const { diverged_at } = await worker.done
    if (cancelled() || diverged_at !== undefined) void worker.terminate()
    if (cancelled()) return err(cutoverError('run_not_found', `run ${view.id} was deleted`))
    if (diverged_at !== undefined) {
      return err(
        cutoverError(
          'run_diverged',
          `re-simulating run ${view.id} diverged from its stored trace at step ${diverged_at}: it was stored by another build; re-run it with this one`,
        ),
      )
    }
    return ok({ worker, events })
  } catch (error) {
    void worker?.terminate()
    throw error
  } finally {
    slot.release()
  }
}

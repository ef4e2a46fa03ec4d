import { describe, expect, it } from 'vitest'
import type { TraceEventType } from '../contracts/trace.ts'
import type { JsonValue } from '../json.ts'
import { ok } from '../result.ts'
import type { ControllerHost, ControllerTask } from './ControllerHost.ts'
import { Controller } from './Controller.ts'
import type { Fleet } from './Fleet.ts'

/** A fleet that answers every control call later, as one over HTTP would. */
function laterFleet(): Fleet {
  const later = <T>(value: T) => Promise.resolve(ok(value))
  const status = {
    state: 'preparing' as const,
    ready_to_commit: true,
    running: 0,
    parked_with_boundary: 0,
    parked_without_boundary: 0,
    completed_unacknowledged: 0,
    blocking_attempts: [],
    completed_unacknowledged_attempts: [],
  }
  const report = {
    state: 'paused' as const,
    workers: { acknowledged: 1, expected: 1 },
    inflight_total: 0,
    inflight: [],
  }
  const resources = {
    prepare: () => later({ sessions: 0, state: 'prepared' as const, inventory: [] }),
    retire: () => later({ retired: true as const, dropped_snapshot: false }),
    commit: () => later({ sessions: 0, manifest_digest: 'd' }),
    restore: () => later({ sessions: 0, source_checkpoint_id: 'ck', activated: [] }),
    resume: () => later({ state: 'accepting' as const }),
  }
  return {
    generation: 0,
    agent: {
      prepare: () => later(status),
      status: () => later(status),
      prepareDeadline: () => later(status),
      retire: () => later({ retired: true, tombstoned: true }),
      commit: () => later({ records: 0, manifest_digest: 'd', continuation_roots: [] }),
      restore: () =>
        later({ records: 0, source_checkpoint_id: 'ck', continuations: [], records_list: [] }),
      resume: () => later({ state: 'accepting' as const, released: 0 }),
    },
    model: {
      admission: 'paused',
      workerCount: 1,
      workerAck: () => later(undefined),
      pause: () => later(report),
      status: () => later(report),
      abortInflight: () =>
        later({ state: 'paused' as const, aborted_inflight: 0, inflight_total: 0 }),
      commit: () =>
        later({
          rollouts: 0,
          rows: 0,
          excluded_tombstoned: 0,
          excluded_inactive: 0,
          manifest_digest: 'd',
        }),
      restore: () =>
        later({
          rollouts: 0,
          rows: 0,
          checkpoint_id: 'ck',
          tombstones: [],
          source_attempts: [],
          relays: {},
        }),
      resume: () => later({ state: 'accepting' as const, workers: 1 }),
    },
    resources: { blackjack: resources, counter: resources, workplace: resources },
  } as unknown as Fleet
}

describe('controller over a fleet that answers later', () => {
  it('[controller-async] prepare waits for each answer in turn and traces the same calls, in the same order', async () => {
    const emitted: TraceEventType[] = []
    const tasks: ControllerTask[] = []
    const fleet = laterFleet()
    const host = {
      now: () => 0,
      fleet: () => fleet,
      emit: (_phase: unknown, _from: unknown, _to: unknown, type: TraceEventType) =>
        emitted.push(type),
      schedule: () => {},
      runTask: (task: ControllerTask) => tasks.push(task),
      freezeDispatch: () => {},
      unacknowledged: (): readonly JsonValue[] => [],
      log: (_phase: unknown, type: TraceEventType) => emitted.push(type),
    } as unknown as ControllerHost
    const controller = new Controller(host, 100)
    controller.begin('ck-1')
    // the first call is still unanswered: the rest of the prepare waits as a task of the host
    expect(emitted).toEqual([])
    while (tasks.length > 0) {
      const step = (tasks[0] as ControllerTask).next()
      if (step.done === true) tasks.shift()
      else if (step.value !== undefined) await step.value
    }
    expect(emitted).toEqual([
      'agent.prepare',
      'model.pause',
      'model.status',
      'agent.status',
      'resources.prepare',
      'resources.prepare',
      'resources.prepare',
    ])
    expect(controller.stage).toBe('committing')
  })
})

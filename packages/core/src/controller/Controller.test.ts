import { describe, expect, it } from 'vitest'
import { nodeDigest } from '../adapters/nodeDigest.ts'
import type { CutoverError } from '../contracts/errors.ts'
import { cutoverError } from '../contracts/errors.ts'
import type { JsonValue } from '../json.ts'
import type { Result } from '../result.ts'
import { err, ok } from '../result.ts'
import { createWorld, defaultEnvFactory } from '../simulator/World.ts'
import type { World } from '../simulator/World.ts'
import { simulatedFleet } from '../simulator/simulatedFleet.ts'
import { MemoryCheckpointDirectory } from '../testing/MemoryCheckpointDirectory.ts'
import { ResourcesParticipant } from '../protocol/ResourcesParticipant.ts'
import { createCounterServer } from '../environments/counter/counterServer.ts'
import type { EnvironmentServer } from '../environments/EnvironmentServer.ts'
import type { ControllerHost, SteppedDirectory } from './ControllerHost.ts'
import { Controller } from './Controller.ts'
import type { Fleet } from './Fleet.ts'

interface Logged {
  readonly type: string
  readonly to: string
  readonly outcome: string
  readonly payload: { readonly [key: string]: unknown }
}

interface HarnessOptions {
  readonly deadlineMs?: number
  /** Receipts the framework still holds at prepare, and whether acknowledging them succeeds. */
  readonly unacked?: JsonValue[]
  readonly ackFails?: boolean
  /** Changes the fleet the restore runs on (fresh processes). */
  readonly spawn?: (world: World) => World
  /** Wraps each fleet (to lose a response, say). */
  readonly wrap?: (fleet: Fleet) => Fleet
  /** Damages D after the checkpoint is published. */
  readonly afterPublish?: (dir: MemoryCheckpointDirectory) => void
}

/** A directory whose writes happen at once (the harness needs no stepped trace). */
function direct(dir: MemoryCheckpointDirectory): SteppedDirectory {
  return {
    location: dir.location,
    writeFile: (p, d) => dir.writeFile(p, d),
    sync: () => dir.sync(),
    readFile: (p) => dir.readFile(p),
    list: () => dir.list(),
    flushOne: () => false,
    takeFailure: () => undefined,
  }
}

/** A controller over in-process participants with a minimal agenda (no workload). */
function harness(options: HarnessOptions = {}) {
  let now = 1000
  const agenda: { at: number; seq: number; run: () => void }[] = []
  let seq = 0
  const log: Logged[] = []
  const dirs = new Map<string, MemoryCheckpointDirectory>()
  const envs = defaultEnvFactory(undefined)
  let unacked = [...(options.unacked ?? [])]
  const fleetOf = (world: World): Fleet => {
    const f = simulatedFleet(world, {
      isMissingWorker: () => false,
      later: (d, run) => agenda.push({ at: now + d, seq: seq++, run }),
      taskExited: () => undefined,
    })
    return options.wrap ? options.wrap(f) : f
  }
  const worlds: World[] = [createWorld(0, nodeDigest, envs, 1)]
  let live = fleetOf(worlds[0] as World)
  const host: ControllerHost = {
    now: () => now,
    fleet: () => live,
    spawnFleet: () => {
      const fresh = createWorld(worlds.length, nodeDigest, envs, 1)
      const w = options.spawn ? options.spawn(fresh) : fresh
      worlds.push(w)
      return fleetOf(w)
    },
    adoptFleet: (f) => {
      live = f
    },
    emit: (_phase, _from, to, type, payload, outcome) =>
      log.push({ type, to, outcome, payload: payload as { [key: string]: unknown } }),
    schedule: (delay, run) => agenda.push({ at: now + delay, seq: seq++, run }),
    runTask: (task) => {
      while (task.next().done !== true);
    },
    openDirectory: (cid) => {
      let d = dirs.get(cid)
      if (d === undefined)
        dirs.set(cid, (d = new MemoryCheckpointDirectory({ location: `mem://${cid}` })))
      return direct(d)
    },
    digest: nodeDigest,
    published: (cid) => options.afterPublish?.(dirs.get(cid) as MemoryCheckpointDirectory),
    freezeDispatch: () => undefined,
    afterResume: () => undefined,
    unacknowledged: () => unacked,
    acknowledge: (receipts): Result<unknown, CutoverError> => {
      log.push({
        type: 'agent.acknowledge',
        to: 'agent',
        outcome: options.ackFails === true ? 'completed_execution_acknowledgement_error' : 'ok',
        payload: { receipts },
      })
      if (options.ackFails === true)
        return err(cutoverError('completed_execution_acknowledgement_error', 'refused'))
      unacked = []
      return ok(undefined)
    },
    liveMembership: () => [],
    stagingKeys: () => [],
    tokenSnapshot: () => ({}),
    log: (_phase, type, payload) =>
      log.push({
        type,
        to: 'controller',
        outcome: 'ok',
        payload: payload as { [key: string]: unknown },
      }),
  }
  const controller = new Controller(host, options.deadlineMs ?? 100, {}, 1)
  const drain = (): void => {
    for (let guard = 0; agenda.length > 0 && guard < 10_000; guard++) {
      agenda.sort((a, b) => a.at - b.at || a.seq - b.seq)
      const next = agenda.shift() as { at: number; run: () => void }
      now = Math.max(now, next.at)
      next.run()
      controller.poke()
    }
  }
  return { controller, log, dirs, worlds, drain, types: () => log.map((e) => e.type) }
}

/** The fleet with some of the model's control operations replaced. */
function withModel(
  f: Fleet,
  over: Partial<Pick<Fleet['model'], 'pause' | 'status' | 'restore' | 'resume'>> & {
    admission?: () => Fleet['model']['admission']
  },
): Fleet {
  const m = f.model
  const model: Fleet['model'] = {
    serverName: m.serverName,
    get admission() {
      return over.admission ? over.admission() : m.admission
    },
    get workerCount() {
      return m.workerCount
    },
    pause: over.pause ?? ((cid, d) => m.pause(cid, d)),
    status: over.status ?? ((cid, now) => m.status(cid, now)),
    abortInflight: (cid, id) => m.abortInflight(cid, id),
    commit: (cid, dir, roots) => m.commit(cid, dir, roots),
    restore: over.restore ?? ((cid, dir) => m.restore(cid, dir)),
    resume: over.resume ?? ((cid) => m.resume(cid)),
    workerAck: (k) => m.workerAck(k),
  }
  return { ...f, model }
}

const abortReason = (log: readonly Logged[]): string =>
  String(log.find((e) => e.type === 'controller.abort')?.payload['reason'] ?? '')
const abandoned = (log: readonly Logged[]): string =>
  String(log.find((e) => e.type === 'controller.restore_abandoned')?.payload['reason'] ?? '')

describe('Controller (docs/protocol.md §3.5–3.7)', () => {
  it('[controller.prepare-order] [controller.commit-order] [controller.resume-order] prepare, commit, restore and resume run in protocol order', () => {
    const h = harness()
    h.controller.begin('ck')
    h.drain()
    const types = h.types()
    expect(types.indexOf('agent.prepare')).toBeLessThan(types.indexOf('model.pause'))
    expect(types.indexOf('model.pause')).toBeLessThan(types.indexOf('resources.prepare'))
    expect(types.indexOf('agent.commit')).toBeLessThan(types.indexOf('model.commit'))
    expect(types.indexOf('model.commit')).toBeLessThan(types.indexOf('resources.commit'))
    // Resume: the policy model and every resources server before the agent.
    const resumes = h.log.filter((e) => e.type.endsWith('.resume')).map((e) => e.to)
    expect(resumes).toEqual([
      'policy_model',
      'resources_blackjack',
      'resources_counter',
      'resources_workplace',
      'agent',
    ])
    expect(h.controller.stage).toBe('done')
    expect(h.log.filter((e) => e.outcome !== 'ok')).toEqual([])
  })

  it('[controller.acks-before-prepare] exact receipts are acknowledged before any participant is asked to prepare', () => {
    const h = harness({ unacked: [{ rollout_id: 'r0', attempt_index: 0 }] })
    h.controller.begin('ck')
    const types = h.types()
    expect(types[0]).toBe('agent.acknowledge')
    expect(types.indexOf('agent.acknowledge')).toBeLessThan(types.indexOf('agent.prepare'))
  })

  it('[controller.prepare-refused-unreleased] while completed results stay unreleased the prepare fails (prepare_incomplete) and no participant prepares', () => {
    const h = harness({ unacked: [{ rollout_id: 'r0', attempt_index: 0 }], ackFails: true })
    h.controller.begin('ck')
    expect(h.types()).not.toContain('agent.prepare')
    expect(h.types()).not.toContain('model.pause')
    expect(abortReason(h.log)).toMatch(
      /^prepare_incomplete: streamed agent results remain unacknowledged/,
    )
    expect(h.controller.stage).toBe('aborted')
  })

  it('[controller.deadline-exceeded] a deadline already passed at the controller fails fast with deadline_exceeded; nothing is prepared', () => {
    const h = harness({ deadlineMs: 0 })
    h.controller.begin('ck')
    expect(abortReason(h.log)).toMatch(/^deadline_exceeded/)
    expect(h.types()).not.toContain('agent.prepare')
    expect(h.types()).not.toContain('model.pause')
    expect(h.worlds[0]?.model.admission).toBe('accepting')
  })

  it('[controller.prepare-incomplete] a policy model that does not reach paused by the deadline fails the prepare with prepare_incomplete', () => {
    const h = harness({
      // The model's status never reports paused (a worker that never acknowledges).
      wrap: (f) =>
        withModel(f, {
          admission: () => 'draining',
          status: () => err(cutoverError('missing_workers', 'worker 1 did not acknowledge')),
        }),
    })
    h.controller.begin('ck')
    h.drain()
    expect(abortReason(h.log)).toBe('prepare_incomplete: missing_workers')
    expect(h.types()).not.toContain('resources.prepare')
  })

  it('[controller.abort-resumes-lost-response] a lost response to prepare still gets resume: the model that paused is reopened by the abort', () => {
    const h = harness({
      // The model pauses, but its answer never reaches the controller.
      wrap: (f) =>
        withModel(f, {
          pause: (cid, d) => (
            f.model.pause(cid, d),
            err(cutoverError('internal_error', 'response lost'))
          ),
        }),
    })
    h.controller.begin('ck')
    const model = h.worlds[0]?.model
    expect(h.log.some((e) => e.type === 'model.resume' && e.outcome === 'ok')).toBe(true)
    expect(model?.admission).toBe('accepting')
    expect(model?.fence.phase).toBe('idle')
  })

  it('[controller.abort-resumes-lost-response] an abort resumes only the participants a prepare was sent to: resources never asked to prepare get no resume', () => {
    const h = harness({
      wrap: (f) =>
        withModel(f, {
          admission: () => 'draining',
          status: () => err(cutoverError('missing_workers', 'worker 1 did not acknowledge')),
        }),
    })
    h.controller.begin('ck')
    h.drain()
    expect(abortReason(h.log)).toBe('prepare_incomplete: missing_workers')
    const abortAt = h.log.findIndex((e) => e.type === 'controller.abort')
    const resumed = h.log.slice(abortAt).filter((e) => e.type.endsWith('.resume'))
    expect(resumed.map((e) => e.to)).toEqual(['policy_model', 'agent'])
    expect(resumed.every((e) => e.outcome === 'ok')).toBe(true)
  })

  it('[controller.abort-already-accepting] during an abort an invalid_phase answer to resume is recorded as already_accepting', () => {
    const h = harness({
      wrap: (f) =>
        withModel(f, {
          pause: (cid, d) => (
            f.model.pause(cid, d),
            err(cutoverError('internal_error', 'response lost'))
          ),
          resume: () => err(cutoverError('invalid_phase', 'nothing to resume')),
        }),
    })
    h.controller.begin('ck')
    const resume = h.log.find((e) => e.type === 'model.resume')
    expect(resume?.outcome).toBe('ok')
    expect(resume?.payload).toMatchObject({ result: { state: 'already_accepting' } })
    expect(h.controller.stage).toBe('aborted')
  })

  it('[controller.abort-resumes-lost-response] a lost response to restore still gets resume on that fresh participant', () => {
    let lost: World | undefined
    const h = harness({
      spawn: (w) => (lost = w),
      wrap: (f) =>
        f.generation === 0
          ? f
          : withModel(f, {
              restore: (cid, d) => (
                f.model.restore(cid, d),
                err(cutoverError('internal_error', 'response lost'))
              ),
            }),
    })
    h.controller.begin('ck')
    h.drain()
    expect(abandoned(h.log)).toBe('internal_error')
    expect(lost?.model.fence.phase).toBe('idle')
    expect(lost?.model.admission).toBe('accepting')
  })

  it('[controller.restore-reads-aggregate] restore refuses a directory without checkpoint.json before any participant restores', () => {
    const h = harness({ afterPublish: (dir) => dir.remove('checkpoint.json') })
    h.controller.begin('ck')
    h.drain()
    expect(abandoned(h.log)).toMatch(/^checkpoint_not_found/)
    expect(h.types().filter((t) => t.endsWith('.restore'))).toEqual([])
  })

  it('[controller.restore-fleet-mismatch] restore refuses when the committed participant set differs from the current fleet', () => {
    const h = harness({
      spawn: (w) => ({
        ...w,
        resources: {
          ...w.resources,
          counter: new ResourcesParticipant(
            createCounterServer() as unknown as EnvironmentServer<unknown>,
            nodeDigest,
            { serverName: 'counter2' },
          ),
        },
      }),
    })
    h.controller.begin('ck')
    h.drain()
    expect(abandoned(h.log)).toMatch(
      /^fleet_mismatch: committed but not in the fleet: \[counter:counter:resources\]; in the fleet but not committed: \[counter2:counter2:resources\]/,
    )
    expect(h.types().filter((t) => t.endsWith('.restore'))).toEqual([])
  })

  it('[controller.restore-already-live] a restore whose participants already restored and resumed the checkpoint fails with participant_already_live naming each of them, never restored', () => {
    let first: World | undefined
    const h = harness({
      spawn: (w) => {
        if (first === undefined) return (first = w)
        // The retried restore: the model and the agent are the processes the first restore made
        // live; the resources servers are fresh replacements.
        return { ...w, model: first.model, agent: first.agent }
      },
    })
    h.controller.begin('ck')
    h.drain()
    expect(h.controller.stage).toBe('done')
    expect(first?.model.fence.isRetired('ck')).toBe(true)
    h.log.length = 0
    h.controller.restorePublished('ck')
    h.drain()
    expect(h.controller.stage).toBe('aborted')
    const reason = abandoned(h.log)
    expect(reason).toMatch(/^participant_already_live: policy_model, agent already restored/)
    expect(reason).not.toContain('resources_')
    expect(h.log.find((e) => e.type === 'model.restore')?.outcome).toBe('stale_checkpoint')
    // Nothing after the refusal was restored.
    expect(h.log.filter((e) => e.type === 'resources.restore')).toEqual([])
  })
})

import type { TracePhase } from '../contracts/trace.ts'
import type { ControllerHost } from '../controller/ControllerHost.ts'
import type { JsonValue } from '../json.ts'
import type { ContinuationRoot } from '../records/ContinuationRoot.ts'
import { captureKey } from '../records/ExecutionIdentity.ts'
import { corruptCheckpoint } from './corruptCheckpoint.ts'
import type { Engine } from './Engine.ts'
import type { RolloutDriver } from './RolloutDriver.ts'
import { StagedDirectory } from './StagedDirectory.ts'
import type { TokenSegmentInput } from '../directory/publishTokenStoreManifest.ts'
import { releaseEgress, startGenerationCut } from './generationCutRound.ts'

/**
 * The controller's host in the simulator: its messages become trace events in the engine, its
 * waits become agenda items and tasks, its directory is staged, and the run's faults that hit the
 * controller's world (a worker rejoining after an abort, corrupted files after publication) are
 * applied here, where the controller never sees them.
 */
export function simulatorHost(engine: Engine, driver: RolloutDriver): ControllerHost {
  /**
   * The cut prefixes the committed ledger names, kept from the model commit to the token-store
   * publication.
   */
  let segments: TokenSegmentInput[] = []
  const afterControl = (type: string, outcome: string): void => {
    if (type === 'model.commit' && outcome === 'ok') {
      segments = cutSegmentsOf(engine)
      releaseEgress(engine, driver, engine.controller.checkpointId, 'committed')
    }
    if (outcome !== 'ok' || !engine.options.record) return
    if (type === 'resources.prepare') driver.recordPrepared()
    if (type === 'resources.retire') driver.recordRetired()
  }
  const rejoin = (phase: TracePhase): void => {
    const { faults } = engine
    for (const k of faults.missingWorkers()) {
      // The dropped worker's replacement tries to join while the checkpoint holds admission closed.
      const early = engine.world.model.workerRegister(k)
      engine.emit(
        phase,
        `model_worker_${k}`,
        'policy_model',
        'model.worker_register',
        { worker: k },
        early.ok ? 'ok' : early.error.code,
      )
      engine.at(10, () => {
        const again = engine.world.model.workerRegister(k)
        engine.emit(
          'abort',
          `model_worker_${k}`,
          'policy_model',
          'model.worker_register',
          { worker: k },
          again.ok ? 'ok' : again.error.code,
        )
        if (again.ok) faults.rejoined(k)
      })
    }
  }
  return {
    now: () => engine.now,
    fleet: () => engine.fleet,
    spawnFleet: () => engine.spawnFleet(),
    adoptFleet: (fleet) => {
      engine.adoptFleet(fleet)
      driver.processesReplaced()
    },
    emit: (phase, from, to, type, payload, outcome) => {
      engine.phase = phase
      engine.emit(phase, from, to, type, payload, outcome)
      afterControl(type, outcome)
    },
    schedule: (delay, run) => engine.at(delay, run),
    runTask: (task) => engine.runTask(task),
    // Participants write into D only inside a commit.
    openDirectory: (cid, writer) =>
      new StagedDirectory(engine.directory(cid), {
        writer,
        crashesOnWrite: () => engine.faults.crashesOnWrite(),
        crashWrite: engine.faults.crashWrite,
        traceWrite: (who, w, outcome) =>
          engine.emit(
            'commit',
            who,
            'directory',
            'directory.write',
            { checkpoint_id: cid, path: w.path, bytes: w.bytes, crashed: w.crashed },
            outcome,
          ),
      }),
    digest: engine.options.digest,
    published: (cid) => {
      // corrupt_file damages the first checkpoint only (the retaken one after an abort stays
      // whole).
      const damaged =
        engine.controller.attempts > 1
          ? []
          : corruptCheckpoint(engine.directory(cid), engine.faults.corruptions, (path, offset) =>
              engine.emit(
                'commit',
                'directory',
                'directory',
                'fault.corrupt_file',
                { checkpoint_id: cid, path, offset },
                'ok',
              ),
            )
      engine.published(cid, damaged.length > 0)
    },
    freezeDispatch: () => {
      engine.frozen = true
    },
    afterResume: (restored, retired) => {
      engine.frozen = false
      engine.phase = engine.phase === 'abort' ? 'abort' : 'continue'
      if (restored === null) {
        // Same processes: release parked executions and queued dispatches.
        driver.releaseAll(retired)
        if (engine.controller.canRetry) engine.scheduleCheckpoint(20)
        return
      }
      engine.phase = 'continue'
      engine.runTask(driver.continueRestored(restored, retired))
    },
    unacknowledged: () => driver.unacknowledged(),
    acknowledge: (receipts: readonly JsonValue[]) => driver.acknowledgeAtPrepare(receipts),
    liveMembership: () => driver.liveMembership(),
    stagingKeys: (roots: readonly ContinuationRoot[]) => {
      const named = new Set(roots.map((x) => x.capture_key))
      const keys: string[] = []
      for (const row of engine.world.model.ledgerRows()) {
        if (named.has(captureKey(row))) keys.push(row.staging_key)
      }
      return keys.sort()
    },
    tokenSnapshot: (keys) => engine.tokenStore.snapshot(keys, engine.options.digest),
    cutGenerations: (cid) =>
      engine.config.cut_mode === 'generation-safe' ? startGenerationCut(engine, driver, cid) : [],
    cutSegments: () => segments,
    log: (phase, type, payload) => {
      engine.phase = phase
      engine.emit(phase, 'controller', 'controller', type, payload, 'ok')
      if (type === 'controller.abort')
        releaseEgress(engine, driver, engine.controller.checkpointId, 'aborted')
      // missing_worker: the dropped worker's replacement tries to rejoin as soon as the checkpoint
      // aborts.
      if (type === 'controller.abort') rejoin(phase)
      if (type === 'rollout.retired') driver.retired(String(payload['rollout_id']))
    },
  }
}

/** The staged prefix segments of the frozen tickets the committed ledger names (not tombstoned). */
function cutSegmentsOf(engine: Engine): TokenSegmentInput[] {
  const model = engine.world.model
  const out: TokenSegmentInput[] = []
  for (const t of model.generationCutFrozen()) {
    if (t.ack === null || t.ack.disposition !== 'durable_prefix' || model.isTombstoned(t.id))
      continue
    for (const [segment, key] of (t.ack.staging_keys ?? []).entries()) {
      const tokens = engine.tokenStore.tokens(key)
      if (tokens !== undefined)
        out.push({ staging_key: key, model_call_id: t.model_call_id, segment, tokens })
    }
  }
  return out
}

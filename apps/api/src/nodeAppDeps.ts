import { checkpointRootsFromEnv } from './control/checkpointRootsFromEnv.ts'
import { randomUUID } from 'node:crypto'
import { join, resolve } from 'node:path'
import type { EnvName } from '@cutover/core'
import { NodeCheckpointDirectory, loadNodeWorkplaceData, nodeDigest } from '@cutover/core/adapters'
import { MemoryCheckpointDirectory } from '@cutover/core/testing'
import type { AppDeps } from './app.ts'
import { createParticipants } from './gym/defaultEnvironments.ts'
import { createCoreSimulator } from './runs/coreSimulator.ts'
import { createFileRunStore } from './store/FileRunStore.ts'
import { simulationWorkerFactory } from './runs/startWorkerSimulation.ts'
import { traceReader } from './runs/readTraceInWorker.ts'
import { startCheckpointWorker } from './checkpoints/startVerificationWorker.ts'

/** The data directory: `CUTOVER_DATA_DIR`, or `.cutover/` in the working directory. */
export function resolveDataDir(
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): string {
  const configured = env['CUTOVER_DATA_DIR']
  return configured !== undefined && configured !== ''
    ? resolve(cwd, configured)
    : join(cwd, '.cutover')
}

/**
 * The real ports: files under the data directory, node:crypto, the wall clock, the core simulator
 * (fresh runs in worker threads).
 */
export function createNodeAppDeps(options: {
  readonly dataDir: string
  readonly controlToken?: string | undefined
  readonly restoreExpected?: boolean
  readonly only?: EnvName
  readonly log?: (line: string) => void
}): AppDeps {
  const openDirectory = (path: string, create: boolean) =>
    new NodeCheckpointDirectory(path, { create })
  // one worker thread verifies run checkpoints and inspects opened directories, off the server's
  // event loop
  const checkpointWorker = startCheckpointWorker()
  return {
    store: createFileRunStore(options.dataDir, openDirectory),
    digest: nodeDigest,
    clock: { now: () => Date.now() },
    simulator: createCoreSimulator(loadNodeWorkplaceData()),
    simulationWorkers: simulationWorkerFactory(options.dataDir),
    readTrace: traceReader(options.dataDir),
    verifyCheckpoints: checkpointWorker.verify,
    inspectDirectories: checkpointWorker.inspect,
    memoryDirectory: (checkpointId) =>
      new MemoryCheckpointDirectory({ location: `memory:${checkpointId}` }),
    gym: createParticipants(nodeDigest, {
      ...(options.restoreExpected === undefined
        ? {}
        : { restoreExpected: options.restoreExpected }),
      ...(options.only === undefined ? {} : { only: options.only }),
    }),
    newSessionId: () => randomUUID(),
    openDirectory,
    checkpointRoots: checkpointRootsFromEnv(options.dataDir),
    ...(options.controlToken === undefined || options.controlToken === ''
      ? {}
      : { controlToken: options.controlToken }),
    ...(options.log === undefined ? {} : { log: options.log }),
  }
}

import type { Hono } from 'hono'
import type {
  CheckpointDirectory,
  Clock,
  Digest,
  EnvName,
  ResourcesParticipant,
} from '@cutover/core'
import type { CheckpointPlace } from '../control/openCheckpointDir.ts'
import { controlRoutes } from './controlRoutes.ts'
import { createGymApp } from './createGymApp.ts'
import { createParticipantGymHost } from './createParticipantGymHost.ts'

/** What serving one environment over HTTP needs (the main server and `cutover gym` alike). */
export interface GymMountOptions extends CheckpointPlace {
  readonly env: EnvName
  readonly participant: ResourcesParticipant<unknown>
  /** `/gym/<env>` in the main server, `` at the root of a `cutover gym` port. */
  readonly mountPath: string
  readonly newSessionId: () => string
  /** Without a token the control routes are not mounted at all. */
  readonly controlToken: string | undefined
  readonly digest: Digest
  readonly clock: Clock
  readonly openDirectory: (path: string, create: boolean) => CheckpointDirectory
}

/**
 * One environment's Gym sub-app: data-plane routes through its participant, control routes with a
 * token.
 */
export function createGymSubApp(options: GymMountOptions): Hono {
  const { env, participant, mountPath, newSessionId, controlToken } = options
  const control =
    controlToken === undefined || controlToken === ''
      ? undefined
      : controlRoutes({
          participant,
          token: controlToken,
          dataDir: options.dataDir,
          checkpointRoots: options.checkpointRoots,
          digest: options.digest,
          clock: options.clock,
          openDirectory: options.openDirectory,
        })
  return createGymApp({
    env,
    host: createParticipantGymHost(participant),
    mountPath,
    newSessionId,
    ...(control === undefined ? {} : { control }),
  })
}

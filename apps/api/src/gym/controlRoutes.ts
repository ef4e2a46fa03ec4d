import type { Hono } from 'hono'
import type { CheckpointDirectory, Clock, Digest, ResourcesParticipant } from '@cutover/core'
import { errorResponse } from '../http/errorResponse.ts'
import type { CheckpointPlace } from '../control/openCheckpointDir.ts'
import { openCheckpointDir } from '../control/openCheckpointDir.ts'
import { controlOperation, controlReply, createControlApp } from '../control/createControlApp.ts'
import {
  directoryBody,
  identityBody,
  operationBody,
  statusQuery,
} from '../control/controlBodies.ts'

/** What the control routes of one resources participant need. */
export interface ControlRoutesOptions extends CheckpointPlace {
  readonly participant: ResourcesParticipant<unknown>
  /** `CUTOVER_CONTROL_TOKEN`; compared in constant time, never logged or returned. */
  readonly token: string
  readonly digest: Digest
  /** Wall-clock ms: `deadline_ts` is absolute Unix-epoch seconds (docs/protocol.md §2.2). */
  readonly clock: Clock
  /** Opens a real checkpoint directory (NodeCheckpointDirectory); `create` for commit. */
  readonly openDirectory: (path: string, create: boolean) => CheckpointDirectory
}

/**
 * The resources participant's control plane (docs/protocol.md §3.1, §3.4) under `/ng-control/v1`:
 * capabilities, and `resources-checkpoint/{prepare,status,commit,restore,resume,retire}` with
 * strict bodies, behind the bearer token. Results are the participant's, errors the envelope.
 */
export function controlRoutes(options: ControlRoutesOptions): Hono {
  const { participant } = options
  const app = createControlApp(options.token)
  const reply = controlReply

  app.get('/capabilities', (c) => c.json(participant.capabilities() as object))

  controlOperation(app, '/resources-checkpoint/prepare', operationBody, (body, c) => {
    return reply(
      c,
      participant.prepare(body.checkpoint_id, body.deadline_ts * 1000, options.clock.now()),
    )
  })

  // GET, like every status route of the protocol (§3.2, §3.3): `?checkpoint_id=…`; answered by the
  // participant itself.
  app.get('/resources-checkpoint/status', (c) => {
    const query = statusQuery.safeParse({ checkpoint_id: c.req.query('checkpoint_id') })
    if (!query.success)
      return errorResponse(
        c,
        'invalid_request',
        `status query: ${query.error.issues[0]?.message ?? 'invalid'}`,
      )
    return reply(c, participant.status(query.data.checkpoint_id))
  })

  controlOperation(app, '/resources-checkpoint/commit', directoryBody, (body, c) => {
    const dir = openCheckpointDir(c, options, body, true, options.openDirectory, participant.fence)
    if (dir instanceof Response) return dir
    return reply(c, participant.commit(body.checkpoint_id, dir))
  })

  controlOperation(app, '/resources-checkpoint/restore', directoryBody, (body, c) => {
    const dir = openCheckpointDir(c, options, body, false, options.openDirectory, participant.fence)
    if (dir instanceof Response) return dir
    // The participant verifies the namespace and, when D holds agent records, reconciles with them.
    return reply(c, participant.restore(body.checkpoint_id, dir))
  })

  controlOperation(app, '/resources-checkpoint/resume', operationBody, (body, c) => {
    return reply(c, participant.resume(body.checkpoint_id))
  })

  controlOperation(app, '/resources-checkpoint/retire', identityBody, (body, c) => {
    const { checkpoint_id, rollout_id, attempt_index, deadline_ts } = body
    return reply(
      c,
      participant.retire(checkpoint_id, { rollout_id, attempt_index }, deadline_ts * 1000),
    )
  })

  app.all('*', (c) =>
    errorResponse(c, 'not_found', `no control route ${c.req.method} ${c.req.path}`),
  )
  return app
}

import { existsSync } from 'node:fs'
import type { Hono } from 'hono'
import type { CheckpointDirectory, Clock, Digest, ResourcesParticipant } from '@cutover/core'
import { cutoverErrorResponse, errorResponse } from '../http/errorResponse.ts'
import { readValidJson } from '../http/jsonBody.ts'
import { checkpointDirUnder } from './checkpointDirUnder.ts'
import { controlReply, createControlApp } from '../control/createControlApp.ts'
import { directoryBody, identityBody, operationBody, statusQuery } from '../control/controlBodies.ts'

/** What the control routes of one resources participant need. */
export interface ControlRoutesOptions {
  readonly participant: ResourcesParticipant<unknown>
  /** `CUTOVER_CONTROL_TOKEN`; compared in constant time, never logged or returned. */
  readonly token: string
  /** `checkpoint_dir` must lie inside this directory. */
  readonly dataDir: string
  readonly digest: Digest
  /** Wall-clock ms: `deadline_ts` is absolute Unix-epoch seconds (PROTOCOL.md §2.2). */
  readonly clock: Clock
  /** Opens a real checkpoint directory (NodeCheckpointDirectory); `create` for commit. */
  readonly openDirectory: (path: string, create: boolean) => CheckpointDirectory
}

/**
 * The resources participant's control plane (PROTOCOL.md §3.1, §3.4) under `/ng-control/v1`:
 * capabilities, and `resources-checkpoint/{prepare,status,commit,restore,resume,retire}` with
 * strict bodies, behind the bearer token. Results are the participant's, errors the envelope.
 */
export function controlRoutes(options: ControlRoutesOptions): Hono {
  const { participant } = options
  const app = createControlApp(options.token)
  const reply = controlReply

  app.get('/capabilities', (c) => c.json(participant.capabilities() as object))

  app.post('/resources-checkpoint/prepare', async (c) => {
    const body = await readValidJson(c, operationBody, 'prepare body')
    if (!body.ok) return cutoverErrorResponse(c, body.error)
    return reply(c, participant.prepare(body.value.checkpoint_id, body.value.deadline_ts * 1000, options.clock.now()))
  })

  // GET, like every status route of the protocol (§3.2, §3.3): `?checkpoint_id=…`; answered by the participant itself.
  app.get('/resources-checkpoint/status', (c) => {
    const query = statusQuery.safeParse({ checkpoint_id: c.req.query('checkpoint_id') })
    if (!query.success) return errorResponse(c, 'invalid_request', `status query: ${query.error.issues[0]?.message ?? 'invalid'}`)
    return reply(c, participant.status(query.data.checkpoint_id))
  })

  app.post('/resources-checkpoint/commit', async (c) => {
    const body = await readValidJson(c, directoryBody, 'commit body')
    if (!body.ok) return cutoverErrorResponse(c, body.error)
    const path = checkpointDirUnder(options.dataDir, body.value.checkpoint_dir)
    if (!path.ok) return cutoverErrorResponse(c, path.error)
    const dir = options.openDirectory(path.value, true)
    return reply(c, participant.commit(body.value.checkpoint_id, dir))
  })

  app.post('/resources-checkpoint/restore', async (c) => {
    const body = await readValidJson(c, directoryBody, 'restore body')
    if (!body.ok) return cutoverErrorResponse(c, body.error)
    const path = checkpointDirUnder(options.dataDir, body.value.checkpoint_dir)
    if (!path.ok) return cutoverErrorResponse(c, path.error)
    if (!existsSync(path.value)) return errorResponse(c, 'checkpoint_not_found', `no checkpoint directory at ${body.value.checkpoint_dir}`)
    let dir: CheckpointDirectory
    try {
      dir = options.openDirectory(path.value, false)
    } catch (error) {
      return errorResponse(c, 'checkpoint_not_found', `cannot open ${body.value.checkpoint_dir}: ${error instanceof Error ? error.message : String(error)}`)
    }
    // The participant verifies the namespace and, when D holds agent records, reconciles with them.
    return reply(c, participant.restore(body.value.checkpoint_id, dir))
  })

  app.post('/resources-checkpoint/resume', async (c) => {
    const body = await readValidJson(c, operationBody, 'resume body')
    if (!body.ok) return cutoverErrorResponse(c, body.error)
    return reply(c, participant.resume(body.value.checkpoint_id))
  })

  app.post('/resources-checkpoint/retire', async (c) => {
    const body = await readValidJson(c, identityBody, 'retire body')
    if (!body.ok) return cutoverErrorResponse(c, body.error)
    const { checkpoint_id, rollout_id, attempt_index, deadline_ts } = body.value
    return reply(c, participant.retire(checkpoint_id, { rollout_id, attempt_index }, deadline_ts * 1000))
  })

  app.all('*', (c) => errorResponse(c, 'not_found', `no control route ${c.req.method} ${c.req.path}`))
  return app
}

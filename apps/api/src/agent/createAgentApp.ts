import { Hono } from 'hono'
import { z } from 'zod'
import type {
  AgentParticipant,
  CheckpointDirectory,
  Clock,
  EnvName,
  JsonValue,
  RolloutPlan,
} from '@cutover/core'
import { ENV_NAMES } from '@cutover/core'
import { API_BODY_LIMIT, limitBody } from '../http/bodyLimits.ts'
import { cutoverErrorResponse } from '../http/errorResponse.ts'
import { readValidJson } from '../http/jsonBody.ts'
import { ROLLOUT_ID_PATTERN } from '../control/executionIdentity.ts'
import type { CheckpointPlace } from '../control/openCheckpointDir.ts'
import { ChangeSignal } from '../model/ChangeSignal.ts'
import { agentControlRoutes } from './agentControlRoutes.ts'
import type { ProcessNote } from '../participants/processTrace.ts'
import type { AgentUpstreams } from './runRolloutOverHttp.ts'
import { runRolloutOverHttp } from './runRolloutOverHttp.ts'

/** What one agent server process needs. */
export interface AgentAppOptions extends CheckpointPlace {
  readonly agent: AgentParticipant
  readonly upstreams: AgentUpstreams
  readonly controlToken: string | undefined
  readonly clock: Clock
  readonly openDirectory: (path: string, create: boolean) => CheckpointDirectory
  readonly pid: number
  /** Records the messages this process sends (the fleet's trace). */
  readonly note: ProcessNote
}

/**
 * `POST /run` (docs/fleet.md): `environment`, optional `seed` (the rollout's seed, decimal) and
 * `task` (its example row; default 0), and `model_delay_ms` (a slow generation, for stragglers).
 */
const runBody = z.strictObject({
  rollout_id: z.string().min(1).max(512).regex(ROLLOUT_ID_PATTERN),
  attempt_index: z.number().int().nonnegative().max(1_000_000_000),
  environment: z.enum(ENV_NAMES as unknown as [EnvName, ...EnvName[]]),
  seed: z.union([z.string().regex(/^-?\d{1,40}$/), z.number().int()]).optional(),
  task: z.number().int().nonnegative().max(1_000_000).optional(),
  model_delay_ms: z.number().int().nonnegative().max(600_000).optional(),
})

/**
 * The agent server (`cutover agent`): `GET /` names it, `POST /run` runs one rollout against the
 * model and resources servers and answers when it ended, and with a token the §3.3 control routes
 * live under `/ng-control/v1`. One `AgentParticipant` serves both, as in the simulator.
 */
export function createAgentApp(options: AgentAppOptions): Hono {
  const { agent } = options
  const signal = new ChangeSignal()
  const app = new Hono()
  // Every route's body is held to the API limit, in the envelope (`POST /run` is ~200 bytes).
  app.use('*', limitBody(API_BODY_LIMIT))
  app.get('/', (c) => c.json({ participant: 'agent', name: agent.instanceName, pid: options.pid }))
  if (options.controlToken !== undefined) {
    app.route(
      '/ng-control/v1',
      agentControlRoutes({
        agent,
        signal,
        token: options.controlToken,
        dataDir: options.dataDir,
        checkpointRoots: options.checkpointRoots,
        clock: options.clock,
        openDirectory: options.openDirectory,
      }),
    )
  }
  app.post('/run', async (c) => {
    const body = await readValidJson(c, runBody, 'run body')
    if (!body.ok) return cutoverErrorResponse(c, body.error)
    const b = body.value
    const plan: RolloutPlan = {
      index: 0,
      rollout_id: b.rollout_id,
      env: b.environment,
      task: b.task ?? 0,
      seed: BigInt(b.seed ?? 0),
    }
    const outcome = await runRolloutOverHttp(
      agent,
      options.upstreams,
      plan,
      b.attempt_index,
      signal,
      options.note,
      b.model_delay_ms === undefined ? {} : { modelDelayMs: b.model_delay_ms },
    )
    if (!outcome.ok) {
      options.note(
        'controller',
        'run.complete',
        { rollout_id: b.rollout_id, attempt_index: b.attempt_index, reward: 0, receipt: null },
        outcome.error.code,
      )
      return cutoverErrorResponse(c, outcome.error)
    }
    options.note(
      'controller',
      'run.complete',
      {
        rollout_id: b.rollout_id,
        attempt_index: b.attempt_index,
        reward: outcome.value.reward,
        receipt: outcome.value.receipt as unknown as JsonValue,
      },
      'ok',
    )
    return c.json(outcome.value)
  })
  return app
}

import type { EnvName, Result } from '@cutover/core'
import { ENV_NAMES, err, ok } from '@cutover/core'
import type { CutoverError } from '@cutover/core/contracts'
import { cutoverError } from '@cutover/core/contracts'
import type { ControlCallRecord } from './controlCall.ts'
import { ANSWERS, checkAnswer } from './answerSchemas.ts'
import { callSite, controlCall } from './controlCall.ts'
import type { FleetEndpoints } from './HttpFleet.ts'

/** The URLs of a fleet (docs/fleet.md fleet file, one model and one agent). */
export interface FleetUrls {
  readonly model: string
  readonly agent: string
  readonly resources: { readonly [K in EnvName]: string }
}

interface Capabilities {
  readonly component?: unknown
  readonly name?: unknown
  readonly schema_version?: unknown
  readonly checkpoint_mode?: unknown
  readonly instance_role?: unknown
  readonly admission_states?: unknown
  readonly multi_process?: { readonly mode?: unknown; readonly num_workers?: unknown }
}

/**
 * Discovery (docs/protocol.md §3.5): `GET /ng-control/v1/capabilities` of every participant; the
 * component must match its slot, schema_version 1, checkpoint_mode export_restore, not
 * `unmanaged`; the policy model must be a policy instance with accepting/draining/paused (an
 * answer without the fields checked is `participant_protocol_error`). The names found become the
 * participant names the aggregate manifest records.
 */
export async function discoverFleet(
  urls: FleetUrls,
  token: string,
  record: (r: ControlCallRecord) => void,
): Promise<Result<FleetEndpoints, CutoverError>> {
  const check = async (
    participant: string,
    url: string,
    component: string,
  ): Promise<Result<{ url: string; name: string; workers?: number }, CutoverError>> => {
    const where = callSite({ participant, url }, 'GET', 'capabilities')
    const caps = checkAnswer(
      await controlCall(
        { participant, url },
        token,
        'GET',
        'capabilities',
        undefined,
        record,
        10_000,
      ),
      ANSWERS.capabilities,
      where,
    )
    if (!caps.ok) return caps
    const c: Capabilities = caps.value
    const refuse = (why: string) => err(cutoverError('invalid_response', `${where}: ${why}`))
    if (c.component !== component)
      return refuse(`component is ${JSON.stringify(c.component)}, expected ${component}`)
    if (c.schema_version !== 1)
      return refuse(`schema_version ${JSON.stringify(c.schema_version)} is not 1`)
    if (c.checkpoint_mode !== 'export_restore')
      return refuse(`checkpoint_mode ${JSON.stringify(c.checkpoint_mode)} is not export_restore`)
    if (c.multi_process?.mode === 'unmanaged')
      return refuse('several workers without a coordinator (unmanaged) cannot be checkpointed')
    if (component === 'responses_api_models') {
      if (c.instance_role !== 'policy') return refuse('not a policy instance')
      const states = Array.isArray(c.admission_states) ? c.admission_states : []
      if (!['accepting', 'draining', 'paused'].every((s) => states.includes(s)))
        return refuse('admission_states lack accepting/draining/paused')
    }
    if (typeof c.name !== 'string' || c.name === '') return refuse('no name')
    const workers = c.multi_process?.num_workers
    return ok({
      url,
      name: c.name,
      ...(typeof workers === 'number' && Number.isInteger(workers) && workers > 1
        ? { workers }
        : {}),
    })
  }
  const model = await check('policy_model', urls.model, 'responses_api_models')
  if (!model.ok) return model
  const agent = await check('agent', urls.agent, 'responses_api_agents')
  if (!agent.ok) return agent
  const resources = {} as { [K in EnvName]: { url: string; name: string } }
  for (const env of ENV_NAMES) {
    const r = await check(`resources_${env}`, urls.resources[env], 'resources_servers')
    if (!r.ok) return r
    resources[env] = r.value
  }
  return ok({ model: model.value, agent: agent.value, resources })
}

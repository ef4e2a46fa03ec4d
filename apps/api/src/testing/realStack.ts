import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ENV_NAMES } from '@cutover/core'
import type { ParticipantProcess } from '../fleet/spawnParticipant.ts'
import { spawnParticipant } from '../fleet/spawnParticipant.ts'

/** The vendored recordings of the real stack (vendor/real_stack/README.md). */
export const REAL_STACK = fileURLToPath(new URL('../../../../vendor/real_stack/', import.meta.url))

/** One recorded HTTP exchange (`exchanges.jsonl`): what the real side sent and was answered. */
export interface RealExchange {
  readonly seq: number
  readonly t: number
  readonly ms: number
  readonly label: 'original' | 'replacement'
  readonly participant: string
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly query: { readonly [key: string]: string }
  readonly request: unknown
  readonly status: number | null
  readonly response: unknown
  readonly transport_error?: string
}

/** The exchanges of one recorded run, in the order they were sent (`t`). */
export function readExchanges(run: string): RealExchange[] {
  return readFileSync(join(REAL_STACK, run, 'exchanges.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RealExchange)
    .sort((a, b) => a.t - b.t)
}

/** A fleet of Cutover's participant processes under the real controller's names. */
export interface NamedFleet {
  readonly urls: { readonly [name: string]: string }
  readonly processes: readonly ParticipantProcess[]
  stop(): Promise<void>
}

/**
 * Starts `cutover model`, `cutover gym blackjack|counter|workplace` and `cutover agent` (their
 * names: policy, blackjack, counter, workplace, agent — what their capabilities report and the
 * real controller's participant ids), with `env` (token, data directory, clock offset…).
 */
export async function startNamedFleet(
  env: NodeJS.ProcessEnv,
  extra: readonly string[] = [],
): Promise<NamedFleet> {
  const envs: readonly (typeof ENV_NAMES)[number][] = ['blackjack', 'counter', 'workplace']
  const [policy, ...gyms] = await Promise.all([
    spawnParticipant(['model', ...extra], env),
    ...envs.map((e) => spawnParticipant(['gym', e, '--port', '0', ...extra], env)),
  ])
  const resources = envs.map((e, i) => `${e}=${(gyms[i] as ParticipantProcess).url}`).join(',')
  const model = policy as ParticipantProcess
  const agent = await spawnParticipant(
    ['agent', '--model', model.url, '--resources', resources, ...extra],
    env,
  )
  const processes = [model, ...gyms, agent]
  return {
    urls: {
      policy: model.url,
      agent: agent.url,
      ...Object.fromEntries(envs.map((e, i) => [e, (gyms[i] as ParticipantProcess).url])),
    },
    processes,
    stop: async () => void (await Promise.all(processes.map((p) => p.stop()))),
  }
}

type Obj = { readonly [key: string]: unknown }
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v)
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v)
const nonEmpty = (v: unknown): boolean => typeof v === 'string' && v !== ''
const ROLLOUT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/
const DIGEST = /^[a-f0-9]{64}$/

/**
 * Why the real NeMo-RL controller (`nemo_gym_checkpoint.py`, vendor/real_stack/README.md) would
 * refuse a completion receipt, or null: exactly the keys rollout_id, attempt_index,
 * execution_generation, one of result_id / result_identity, result_digest, each of its type.
 */
export function receiptRefusal(receipt: unknown): string | null {
  if (!isObj(receipt)) return 'completion_receipt is not an object'
  const ids = ['result_id', 'result_identity'].filter((k) => k in receipt)
  if (ids.length !== 1) return 'not exactly one result id field'
  const keys = ['rollout_id', 'attempt_index', 'execution_generation', ids[0], 'result_digest']
  if (Object.keys(receipt).sort().join() !== keys.sort().join()) return 'missing or extra fields'
  if (typeof receipt['rollout_id'] !== 'string' || !ROLLOUT_ID.test(receipt['rollout_id']))
    return 'rollout_id'
  if (!isInt(receipt['attempt_index']) || receipt['attempt_index'] < 0) return 'attempt_index'
  if (!isInt(receipt['execution_generation']) || receipt['execution_generation'] < 1)
    return 'execution_generation'
  const id = receipt[ids[0] as string]
  if (typeof id !== 'string' || id === '' || Buffer.byteLength(id) > 512) return 'result id'
  if (typeof receipt['result_digest'] !== 'string' || !DIGEST.test(receipt['result_digest']))
    return 'result_digest'
  return null
}

/**
 * Why the real NeMo-RL controller would refuse this answer of participant `name` to a control
 * call, or null — what it parses and requires of each (vendor/real_stack/README.md): a 2xx JSON
 * object for every call; capabilities with the fields its `CheckpointCapabilities` reads, its name,
 * schema 1 and export_restore (a policy model with the three admission states); a paused model
 * status; agent status items each carrying a valid `completion_receipt`; an acknowledgement with
 * boolean `acknowledged` and `idempotent`, one of them true.
 */
export function realControllerRefusal(
  name: string,
  method: string,
  path: string,
  status: number,
  body: unknown,
): string | null {
  if (status < 200 || status >= 300) return `HTTP ${status}: ${JSON.stringify(body)}`
  if (!isObj(body)) return 'the answer is not a JSON object'
  const route = path.replace('/ng-control/v1/', '')
  if (method === 'GET' && route === 'capabilities') {
    const mp = body['multi_process']
    if (!isObj(mp) || !nonEmpty(mp['mode']) || mp['mode'] === 'unmanaged') return 'multi_process'
    if (!isInt(mp['num_workers']) || mp['num_workers'] < 1) return 'num_workers'
    const states = body['admission_states']
    if (!Array.isArray(states) || !states.every((s) => typeof s === 'string'))
      return 'admission_states'
    for (const key of ['component', 'name', 'checkpoint_mode', 'concurrency_contract'])
      if (!nonEmpty(body[key])) return key
    if (body['name'] !== name) return `name ${String(body['name'])} is not ${name}`
    if (body['schema_version'] !== 1) return 'schema_version'
    if (body['checkpoint_mode'] !== 'export_restore') return 'checkpoint_mode'
    const role = body['instance_role']
    if (role !== undefined && role !== null && typeof role !== 'string') return 'instance_role'
    if (body['component'] === 'responses_api_models') {
      if (role !== 'policy') return 'not a policy instance'
      if (!['accepting', 'draining', 'paused'].every((s) => states.includes(s)))
        return 'admission states'
    }
    return null
  }
  if (method === 'GET' && route === 'model-admission/status')
    return body['state'] === 'paused' ? null : `state ${String(body['state'])}`
  if (method === 'GET' && route === 'agent-checkpoint/status') {
    const items = body['completed_unacknowledged_attempts']
    if (!Array.isArray(items) || items.length > 4096) return 'completed_unacknowledged_attempts'
    for (const item of items) {
      if (!isObj(item)) return 'an attempt is not an object'
      const why = receiptRefusal(item['completion_receipt'])
      if (why !== null) return `completion_receipt: ${why}`
    }
    return null
  }
  if (method === 'POST' && route === 'agent-checkpoint/acknowledge') {
    const { acknowledged, idempotent } = body
    if (typeof acknowledged !== 'boolean' || typeof idempotent !== 'boolean')
      return 'acknowledged / idempotent are not booleans'
    return acknowledged || idempotent ? null : 'neither acknowledged nor idempotent'
  }
  return null
}

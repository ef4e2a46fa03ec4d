import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ParticipantProcess } from '../fleet/spawnParticipant.ts'
import { spawnParticipant } from '../fleet/spawnParticipant.ts'
import { processAlive } from './processAlive.ts'

const TOKEN = 'test-token-participants'
const dataDir = mkdtempSync(join(tmpdir(), 'cutover-participants-'))
const env = { CUTOVER_CONTROL_TOKEN: TOKEN, CUTOVER_DATA_DIR: dataDir }
const started: ParticipantProcess[] = []
let model: ParticipantProcess
let agent: ParticipantProcess
let replacementModel: ParticipantProcess
let replacementAgent: ParticipantProcess

async function start(args: string[]): Promise<ParticipantProcess> {
  const p = await spawnParticipant(args, env)
  started.push(p)
  return p
}

const auth = { authorization: `Bearer ${TOKEN}` }
const deadline = (): number => Date.now() / 1000 + 30
async function call(
  url: string,
  method: 'GET' | 'POST',
  body?: unknown,
  headers: Record<string, string> = auth,
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const r = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: r.status, body: (await r.json()) as Record<string, unknown>, headers: r.headers }
}
const code = (r: { body: Record<string, unknown> }): unknown =>
  (r.body['error'] as { code?: unknown } | undefined)?.code
const policy = (turn: number) => ({
  metadata: {
    cutover_policy: JSON.stringify({
      environment: 'counter',
      task: 0,
      turn,
      observation: null,
      done: false,
    }),
  },
})
const identity = (rollout: string, attempt = 0) => ({
  'x-nemo-gym-rollout-id': rollout,
  'x-nemo-gym-attempt-index': String(attempt),
})

beforeAll(async () => {
  const [m, b, c, w] = await Promise.all([
    start(['model']),
    start(['gym', 'blackjack', '--port', '0']),
    start(['gym', 'counter', '--port', '0']),
    start(['gym', 'workplace', '--port', '0']),
  ])
  model = m
  agent = await start([
    'agent',
    '--model',
    m.url,
    '--resources',
    `blackjack=${b.url},counter=${c.url},workplace=${w.url}`,
  ])
  ;[replacementModel, replacementAgent] = await Promise.all([
    start(['model', '--restore-expected']),
    start([
      'agent',
      '--restore-expected',
      '--model',
      m.url,
      '--resources',
      `blackjack=${b.url},counter=${c.url},workplace=${w.url}`,
    ]),
  ])
})

afterAll(async () => {
  await Promise.all(started.map((p) => p.stop()))
  for (const p of started) expect(processAlive(p.pid), `pid ${p.pid} is gone`).toBe(false)
  rmSync(dataDir, { recursive: true, force: true })
})

describe('cutover model and cutover agent as real processes', () => {
  it('[fleet-process] GET / names the participant and its pid; loopback URLs', async () => {
    expect(model.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect((await call(`${model.url}/`, 'GET')).body).toEqual({
      participant: 'model',
      name: 'policy',
      pid: model.pid,
    })
    expect((await call(`${agent.url}/`, 'GET')).body).toEqual({
      participant: 'agent',
      name: 'agent',
      pid: agent.pid,
    })
  })

  it('[fleet-token] control routes refuse a missing or wrong bearer token with 401 unauthorized', async () => {
    for (const base of [model.url, agent.url]) {
      for (const headers of [{}, { authorization: 'Bearer wrong' }] as Record<string, string>[]) {
        const r = await call(`${base}/ng-control/v1/capabilities`, 'GET', undefined, headers)
        expect(r.status).toBe(401)
        expect(code(r)).toBe('unauthorized')
      }
      const caps = await call(`${base}/ng-control/v1/capabilities`, 'GET')
      expect(caps.status).toBe(200)
      expect(caps.body['schema_version']).toBe(1)
      expect(caps.body['checkpoint_mode']).toBe('export_restore')
      expect(caps.body['phase']).toBe('idle')
    }
  })

  it('[model-admission] data plane, pause, checkpoint_parked with retry-after, long-poll status, commit, resume, stale id', async () => {
    const base = `${model.url}/ng-control/v1`
    const first = await call(`${model.url}/v1/responses`, 'POST', policy(0), identity('m0'))
    expect(first.status).toBe(200)
    expect(first.headers.get('x-nemo-gym-model-call-id')).toBe('policy-call-000001')
    const prefixed = await call(
      `${model.url}/ng-rollout/m0/v1/responses`,
      'POST',
      policy(1),
      identity('m0'),
    )
    expect(prefixed.status).toBe(200)
    expect(
      code(
        await call(`${model.url}/ng-rollout/other/v1/responses`, 'POST', policy(1), identity('m0')),
      ),
    ).toBe('execution_identity_mismatch')
    expect(
      code(
        await call(
          `${model.url}/v1/responses`,
          'POST',
          { metadata: { cutover_policy: 5 } },
          identity('m0'),
        ),
      ),
    ).toBe('invalid_request')

    expect(code(await call(`${base}/model-admission/status?checkpoint_id=ck-m`, 'GET'))).toBe(
      'invalid_phase',
    )
    expect(
      code(
        await call(`${base}/model-admission/pause`, 'POST', {
          schema_version: 1,
          checkpoint_id: 'ck-m',
          deadline_ts: deadline(),
          extra: 1,
        }),
      ),
    ).toBe('invalid_request')
    const pause = await call(`${base}/model-admission/pause`, 'POST', {
      schema_version: 1,
      checkpoint_id: 'ck-m',
      deadline_ts: deadline(),
    })
    expect(pause.status).toBe(200)
    expect(pause.body['state']).toBe('paused')
    expect(
      code(
        await call(`${base}/model-admission/pause`, 'POST', {
          schema_version: 1,
          checkpoint_id: 'ck-other',
          deadline_ts: deadline(),
        }),
      ),
    ).toBe('checkpoint_conflict')

    const parked = await call(`${model.url}/v1/responses`, 'POST', policy(2), identity('m0'))
    expect(parked.status).toBe(409)
    expect(code(parked)).toBe('checkpoint_parked')
    expect(parked.headers.get('retry-after')).toBe('1')

    const status = await call(
      `${base}/model-admission/status?checkpoint_id=ck-m&wait_state=paused&timeout_s=1`,
      'GET',
    )
    expect(status.body).toMatchObject({ checkpoint_id: 'ck-m', state: 'paused', inflight_total: 0 })

    const escape = await call(`${base}/model-checkpoint/commit`, 'POST', {
      schema_version: 1,
      checkpoint_id: 'ck-m',
      deadline_ts: deadline(),
      checkpoint_dir: '../outside',
      continuation_roots: [],
    })
    expect(code(escape)).toBe('path_escape')
    const commit = await call(`${base}/model-checkpoint/commit`, 'POST', {
      schema_version: 1,
      checkpoint_id: 'ck-m',
      deadline_ts: deadline(),
      checkpoint_dir: 'ck-m',
      continuation_roots: [],
    })
    expect(commit.status).toBe(200)
    expect(commit.body['excluded_inactive']).toBe(1)

    const resume = await call(`${base}/model-admission/resume`, 'POST', {
      schema_version: 1,
      checkpoint_id: 'ck-m',
      deadline_ts: deadline(),
    })
    expect(resume.body).toEqual({ state: 'accepting', workers: 1 })
    expect(code(await call(`${base}/model-admission/status?checkpoint_id=ck-m`, 'GET'))).toBe(
      'stale_checkpoint',
    )
    expect(
      (await call(`${model.url}/v1/responses`, 'POST', policy(2), identity('m0'))).status,
    ).toBe(200)
  })

  it('[agent-run] /run plays a rollout over HTTP; prepare closes admission; status, resume; stale attempts', async () => {
    const base = `${agent.url}/ng-control/v1/agent-checkpoint`
    const run = await call(
      `${agent.url}/run`,
      'POST',
      { rollout_id: 'a1', attempt_index: 0, environment: 'counter', task: 0 },
      {},
    )
    expect(run.status).toBe(200)
    expect(run.body['reward']).toBe(1)
    expect((run.body['output'] as unknown[]).length).toBe(3)
    const receipt = run.body['receipt'] as Record<string, unknown>
    expect(
      code(
        await call(
          `${agent.url}/run`,
          'POST',
          { rollout_id: 'a1', attempt_index: 0, environment: 'nowhere' },
          {},
        ),
      ),
    ).toBe('invalid_request')

    const ack = await call(`${base}/acknowledge`, 'POST', { schema_version: 1, receipt })
    expect(ack.body).toEqual({ acknowledged: true, idempotent: false })
    expect(
      code(
        await call(
          `${agent.url}/run`,
          'POST',
          { rollout_id: 'a1', attempt_index: 0, environment: 'counter' },
          {},
        ),
      ),
    ).toBe('stale_attempt')

    const prepare = await call(`${base}/prepare`, 'POST', {
      schema_version: 1,
      checkpoint_id: 'ck-a',
      deadline_ts: deadline(),
    })
    expect(prepare.body['ready_to_commit']).toBe(true)
    const refused = await call(
      `${agent.url}/run`,
      'POST',
      { rollout_id: 'a2', attempt_index: 0, environment: 'counter' },
      {},
    )
    expect(code(refused)).toBe('agent_admission_closed')
    const status = await call(`${base}/status?checkpoint_id=ck-a`, 'GET')
    expect(status.body).toMatchObject({ checkpoint_id: 'ck-a', ready_to_commit: true })
    expect(
      code(
        await call(`${base}/restore`, 'POST', {
          schema_version: 1,
          checkpoint_id: 'ck-a',
          deadline_ts: deadline(),
          checkpoint_dir: 'none',
        }),
      ),
    ).toBe('checkpoint_not_found')
    expect(
      (
        await call(`${base}/resume`, 'POST', {
          schema_version: 1,
          checkpoint_id: 'ck-a',
          deadline_ts: deadline(),
        })
      ).body,
    ).toMatchObject({ state: 'accepting' })
    expect(code(await call(`${base}/status?checkpoint_id=ck-a`, 'GET'))).toBe('stale_checkpoint')
  })

  it('[fleet-replacement] --restore-expected replacements stay paused and refuse resume before a restore', async () => {
    const parked = await call(
      `${replacementModel.url}/v1/responses`,
      'POST',
      policy(0),
      identity('x0'),
    )
    expect(code(parked)).toBe('checkpoint_parked')
    const resume = await call(
      `${replacementModel.url}/ng-control/v1/model-admission/resume`,
      'POST',
      { schema_version: 1, checkpoint_id: 'ck-r', deadline_ts: deadline() },
    )
    expect(code(resume)).toBe('invalid_phase')
    expect(
      code(
        await call(
          `${replacementAgent.url}/run`,
          'POST',
          { rollout_id: 'x0', attempt_index: 1, environment: 'counter' },
          {},
        ),
      ),
    ).toBe('agent_admission_closed')
    const agentResume = await call(
      `${replacementAgent.url}/ng-control/v1/agent-checkpoint/resume`,
      'POST',
      { schema_version: 1, checkpoint_id: 'ck-r', deadline_ts: deadline() },
    )
    expect(code(agentResume)).toBe('invalid_phase')
  })

  it('[fleet-process] a participant exits when its parent closes its stdin', async () => {
    const p = await start(['model'])
    p.child.stdin?.end()
    await new Promise<void>((resolve) => p.child.once('exit', () => resolve()))
    expect(processAlive(p.pid)).toBe(false)
  })
})

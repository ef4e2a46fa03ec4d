import { existsSync, mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { apiHarness, tempDataDir } from '../testing/apiHarness.ts'
import { responseOf } from '../testing/gymBodies.ts'

const TOKEN = 'test-token-5f0c'
const auth = { authorization: `Bearer ${TOKEN}` }
const id = (rollout: string, attempt: number) => ({
  'x-nemo-gym-rollout-id': rollout,
  'x-nemo-gym-attempt-index': String(attempt),
})
const op = (checkpoint_id: string, extra: Record<string, unknown> = {}) => ({
  schema_version: 1,
  checkpoint_id,
  deadline_ts: Date.now() / 1000 + 60,
  ...extra,
})

function server(dataDir: string, controlToken: string | undefined) {
  const api = apiHarness(dataDir, controlToken === undefined ? {} : { controlToken })
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const init: RequestInit = {
      method,
      headers: { 'content-type': 'application/json', ...headers },
    }
    if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body)
    const response = await api.app.request(path, init)
    const text = await response.text()
    return {
      status: response.status,
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked structurally
      body: text === '' ? null : (JSON.parse(text) as any),
      text,
      headers: response.headers,
    }
  }
  const control = (route: string, body: unknown, headers: Record<string, string> = auth) =>
    call('POST', `/gym/counter/ng-control/v1/resources-checkpoint/${route}`, body, headers)
  const counter = (route: string, body: unknown, rollout: string, attempt: number) =>
    call('POST', `/gym/counter/${route}`, body, id(rollout, attempt))
  return { api, call, control, counter }
}

describe('control routes of the resources participant', () => {
  const { dir, cleanup } = tempDataDir()
  afterAll(cleanup)

  it('[control.bearer-auth] [control] without a token the control routes are not mounted', async () => {
    const { call } = server(dir, undefined)
    expect(
      (await call('GET', '/gym/counter/ng-control/v1/capabilities', undefined, auth)).status,
    ).toBe(404)
    expect(
      (
        await call(
          'POST',
          '/gym/counter/ng-control/v1/resources-checkpoint/prepare',
          op('c1'),
          auth,
        )
      ).status,
    ).toBe(404)
  })

  it('[control.bearer-auth] [control.capabilities] [control] a missing or wrong bearer token is 401 unauthorized and the token is never echoed', async () => {
    const { call } = server(dir, TOKEN)
    for (const headers of [
      {},
      { authorization: 'Bearer nope' },
      { authorization: TOKEN },
      { authorization: `Basic ${TOKEN}` },
    ] as Record<string, string>[]) {
      const r = await call('GET', '/gym/counter/ng-control/v1/capabilities', undefined, headers)
      expect(r.status).toBe(401)
      expect(r.body.error.code).toBe('unauthorized')
      expect(r.text).not.toContain(TOKEN)
    }
    const ok = await call('GET', '/gym/counter/ng-control/v1/capabilities', undefined, auth)
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({
      component: 'resources_servers',
      name: 'counter',
      schema_version: 1,
      checkpoint_mode: 'export_restore',
      concurrency_contract: 'serialized_per_session',
      phase: 'idle',
    })
    expect(ok.text).not.toContain(TOKEN)
  })

  it('[control.strict-bodies] [control.error-envelope] [control] prepare, commit, restore under N+1 in a fresh server and resume continue exactly; attempt N is stale', async () => {
    const a = server(dir, TOKEN)
    expect((await a.counter('seed_session', { initial_count: 3 }, 'r1', 0)).status).toBe(200)
    const inc = await a.counter('increment_counter', { count: 1 }, 'r1', 0)
    expect(inc.headers.get('x-nemo-gym-resource-state-revision')).toBe('1')

    // Strict bodies: every malformed prepare is refused and leaves the fence idle.
    for (const bad of [
      { ...op('cp1'), extra: 1 },
      { ...op('cp1'), schema_version: 2 },
      { checkpoint_id: 'cp1', schema_version: 1 },
      op('.bad'),
      op('cp1', { deadline_ts: 'soon' }),
      '{"schema_version":',
    ]) {
      const r = await a.control('prepare', bad)
      expect(r.status, JSON.stringify(bad)).toBe(400)
      expect(['invalid_request', 'malformed_json']).toContain(r.body.error.code)
    }
    expect(
      (await a.call('GET', '/gym/counter/ng-control/v1/capabilities', undefined, auth)).body.phase,
    ).toBe('idle')

    const prepared = await a.control('prepare', op('cp1'))
    expect(prepared).toMatchObject({
      status: 200,
      body: {
        sessions: 1,
        state: 'prepared',
        inventory: [{ rollout_id: 'r1', attempt_index: 0, revision: 1 }],
      },
    })
    expect(await a.counter('increment_counter', { count: 5 }, 'r1', 0)).toMatchObject({
      status: 409,
      body: { error: { code: 'checkpoint_parked' } },
    })
    expect(await a.control('prepare', op('cp2'))).toMatchObject({
      status: 409,
      body: { error: { code: 'checkpoint_conflict' } },
    })
    const status = await a.call(
      'GET',
      '/gym/counter/ng-control/v1/resources-checkpoint/status?checkpoint_id=cp1',
      undefined,
      auth,
    )
    expect(status.body).toMatchObject({
      state: 'paused',
      sessions: 1,
      prepared_inventory: [{ rollout_id: 'r1', attempt_index: 0, revision: 1 }],
    })

    // checkpoint_dir outside the data directory, or through a symlink, is path_escape and writes
    // nothing.
    mkdirSync(join(dir, 'elsewhere'), { recursive: true })
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'link'))
    for (const outside of ['/tmp/cutover-escape', '../escape', '.', join(dir, 'link', 'cp1')]) {
      expect(await a.control('commit', op('cp1', { checkpoint_dir: outside }))).toMatchObject({
        status: 400,
        body: { error: { code: 'path_escape' } },
      })
    }
    expect(existsSync('/tmp/cutover-escape')).toBe(false)
    const checkpointDir = join(dir, 'checkpoints', 'cp1')
    const committed = await a.control('commit', op('cp1', { checkpoint_dir: checkpointDir }))
    expect(committed).toMatchObject({ status: 200, body: { sessions: 1 } })
    expect(existsSync(join(checkpointDir, 'resources', 'counter', 'r1.a0.json'))).toBe(true)
    // Idempotent replay of the recorded result.
    expect((await a.control('commit', op('cp1', { checkpoint_dir: checkpointDir }))).body).toEqual(
      committed.body,
    )

    const b = server(dir, TOKEN)
    expect(
      await b.control('restore', op('cp1', { checkpoint_dir: join(dir, 'checkpoints', 'nope') })),
    ).toMatchObject({ status: 404, body: { error: { code: 'checkpoint_not_found' } } })
    const restored = await b.control('restore', op('cp1', { checkpoint_dir: 'checkpoints/cp1' }))
    expect(restored).toMatchObject({
      status: 200,
      body: { sessions: 1, source_checkpoint_id: 'cp1' },
    })
    expect(await b.counter('increment_counter', { count: 2 }, 'r1', 1)).toMatchObject({
      status: 409,
      body: { error: { code: 'checkpoint_parked' } },
    })
    expect(await b.control('resume', op('cp1'))).toMatchObject({
      status: 200,
      body: { state: 'accepting' },
    })
    expect(await b.counter('increment_counter', { count: 2 }, 'r1', 0)).toMatchObject({
      status: 409,
      body: { error: { code: 'stale_attempt' } },
    })
    expect((await b.counter('increment_counter', { count: 2 }, 'r1', 1)).body).toEqual({
      success: true,
    })
    expect((await b.counter('get_counter_value', {}, 'r1', 1)).body).toEqual({ count: 6 })
    const verify = await b.counter(
      'verify',
      { responses_create_params: { input: [] }, response: responseOf([]), expected_count: 6 },
      'r1',
      1,
    )
    expect(verify.body.reward).toBe(1)
    // The checkpoint id is finished: a replayed resume answers, a new prepare under it is stale.
    expect(await b.control('prepare', op('cp1'))).toMatchObject({
      status: 409,
      body: { error: { code: 'stale_checkpoint' } },
    })
  })

  it('[control] retire tombstones an attempt during prepare; unknown control routes are the envelope 404', async () => {
    const a = server(dir, TOKEN)
    await a.counter('seed_session', { initial_count: 1 }, 'r7', 0)
    expect(
      await a.control('retire', op('cp9', { rollout_id: 'r7', attempt_index: 0 })),
    ).toMatchObject({ status: 409, body: { error: { code: 'invalid_phase' } } })
    await a.control('prepare', op('cp9'))
    expect(
      await a.control('retire', op('cp9', { rollout_id: 'r7', attempt_index: 0, extra: true })),
    ).toMatchObject({ status: 400 })
    expect(
      await a.control('retire', op('cp9', { rollout_id: 'r7', attempt_index: 0 })),
    ).toMatchObject({ status: 200, body: { retired: true, dropped_snapshot: true } })
    expect(
      (
        await a.call(
          'GET',
          '/gym/counter/ng-control/v1/resources-checkpoint/status?checkpoint_id=cp9',
          undefined,
          auth,
        )
      ).body.tombstones,
    ).toEqual(['r7.a0'])
    expect(await a.control('nope', op('cp9'))).toMatchObject({
      status: 404,
      body: { error: { code: 'not_found' } },
    })
    expect(await a.control('prepare', 'x'.repeat(70_000))).toMatchObject({
      status: 413,
      body: { error: { code: 'payload_too_large' } },
    })
  })

  it('[resources.status-get-by-participant] status is a GET answered by the participant: lock and receipt-history fields are its own', async () => {
    const a = server(dir, TOKEN)
    await a.counter('seed_session', { initial_count: 1 }, 'r3', 0)
    await a.control('prepare', op('cs1'))
    const url = '/gym/counter/ng-control/v1/resources-checkpoint/status'
    const got = await a.call('GET', `${url}?checkpoint_id=cs1`, undefined, auth)
    expect(got.status).toBe(200)
    expect(got.body).toMatchObject({
      state: 'paused',
      phase: 'prepared',
      sessions: 1,
      lock_entries: 1,
      locked_sessions: 0,
      evicted_receipt_tombstones: 0,
      receipt_history_saturated: false,
      retired_receipt_sessions: 0,
      mutation_receipts: 0,
    })
    expect(await a.call('GET', `${url}?checkpoint_id=other`, undefined, auth)).toMatchObject({
      status: 409,
      body: { error: { code: 'checkpoint_conflict' } },
    })
    expect(await a.call('GET', `${url}?checkpoint_id=.bad`, undefined, auth)).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request' } },
    })
    expect((await a.control('status', op('cs1'))).status).toBe(404)
  })

  it('[model.parked-retry-after] an admission refusal (checkpoint_parked) over HTTP carries retry-after: 1', async () => {
    const a = server(dir, TOKEN)
    await a.counter('seed_session', { initial_count: 1 }, 'r4', 0)
    await a.control('prepare', op('cr1'))
    const parked = await a.counter('increment_counter', { count: 1 }, 'r4', 0)
    expect(parked.status).toBe(409)
    expect(parked.body.error.code).toBe('checkpoint_parked')
    expect(parked.headers.get('retry-after')).toBe('1')
    await a.control('resume', op('cr1'))
    const accepted = await a.counter('increment_counter', { count: 1 }, 'r4', 0)
    expect(accepted.status).toBe(200)
    expect(accepted.headers.get('retry-after')).toBe(null)
  })
})

import { describe, expect, it } from 'vitest'
import { nodeDigest } from '@cutover/core/adapters'
import type { EnvName } from '@cutover/core'
import { createGymApp } from './createGymApp.ts'
import { createParticipantGymHost } from './createParticipantGymHost.ts'
import { ResourcesParticipant } from '@cutover/core'
import { createEnvironmentServers } from './defaultEnvironments.ts'
import { loadNodeWorkplaceData } from '@cutover/core/adapters'
import { RCP, responseOf, say } from '../testing/gymBodies.ts'

const servers = createEnvironmentServers(nodeDigest, () => 0n)

/** One environment's sub-app mounted like the main server does, plus a one-cookie jar. */
function gym(env: EnvName, options: ConstructorParameters<typeof ResourcesParticipant>[2] = {}) {
  let n = 0
  const mountPath = `/gym/${env}`
  const app = createGymApp({
    env,
    host: createParticipantGymHost(new ResourcesParticipant(servers[env], nodeDigest, options)),
    mountPath,
    newSessionId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  })
  let cookie: string | undefined
  const post = async (
    route: string,
    body: unknown,
    init: { headers?: Record<string, string>; jar?: boolean; raw?: string } = {},
  ) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...init.headers }
    if (init.jar !== false && cookie !== undefined) headers['cookie'] = cookie
    const response = await app.request(`${mountPath}${route}`, {
      method: 'POST',
      headers,
      body: init.raw ?? JSON.stringify(body),
    })
    const setCookie = response.headers.get('set-cookie')
    if (setCookie !== null && init.jar !== false) cookie = setCookie.split(';')[0]
    return {
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
      setCookie,
    }
  }
  return { app, post, mountPath, cookie: () => cookie }
}

describe('Gym-compatible environment routes', () => {
  it('[gym] a seeded Blackjack reset deals CPython Random(0) cards and stand wins', async () => {
    const { post } = gym('blackjack')
    const reset = await post('/reset', { responses_create_params: RCP, seed: 0 })
    expect(reset.status).toBe(200)
    expect(reset.body).toEqual({
      observation:
        'Your hand: [8, A] = 19\nDealer shows: 8\nRespond with <action>hit</action> or <action>stand</action>.',
      info: {},
    })
    expect(reset.setCookie).toMatch(
      /^cutover_blackjack_session=[0-9a-f-]{36}; Path=\/gym\/blackjack; HttpOnly; SameSite=Lax$/,
    )
    const step = await post('/step', {
      responses_create_params: RCP,
      response: say('<action>stand</action>'),
    })
    expect(step.body).toEqual({
      observation: null,
      reward: 1,
      terminated: true,
      truncated: false,
      info: {
        result: 'win',
        player: '[8, A]',
        player_value: 19,
        dealer: '[8, 2, 6, 10]',
        dealer_value: 26,
      },
    })
  })

  it('[gym] a Blackjack hit before any reset is the reference IndexError 500 with its repr as the body', async () => {
    const { app } = gym('blackjack')
    const response = await app.request('/gym/blackjack/step', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ responses_create_params: RCP, response: say('<action>hit</action>') }),
    })
    expect(response.status).toBe(500)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(await response.text()).toBe(`"IndexError('list index out of range')"`)
  })

  it('[gym] the rollout prefix routes like the bare route and needs a valid capture key', async () => {
    const { post } = gym('blackjack')
    const reset = await post('/ng-rollout/4-2/reset', { responses_create_params: RCP, seed: 0 })
    expect(reset.status).toBe(200)
    const hit = await post('/ng-rollout/4-2/step', {
      responses_create_params: RCP,
      response: say('<action>hit</action>'),
    })
    expect(hit.body['observation']).toBe(
      'Your hand: [8, A, 6] = 15\nDealer shows: 8\nRespond with <action>hit</action> or <action>stand</action>.',
    )
    expect((await post('/ng-rollout/.bad/reset', { responses_create_params: RCP })).status).toBe(
      404,
    )
    expect(
      (await post('/ng-rollout/%E0%A4%A/reset', { responses_create_params: RCP })).status,
    ).toBe(404)
  })

  it('[gym] the counter keeps one count per cookie session and verifies it', async () => {
    const a = gym('counter')
    expect((await a.post('/seed_session', { initial_count: 3 })).body).toEqual({})
    expect((await a.post('/increment_counter', { count: 1 })).body).toEqual({ success: true })
    expect((await a.post('/increment_counter', { count: 2 })).body).toEqual({ success: true })
    expect((await a.post('/get_counter_value', {})).body).toEqual({ count: 6 })
    // Another client without the cookie gets its own session.
    expect((await a.post('/get_counter_value', {}, { jar: false })).body).toEqual({ count: 0 })
    const verify = await a.post('/verify', {
      responses_create_params: RCP,
      response: say('6'),
      expected_count: 6,
    })
    expect(verify.body['reward']).toBe(1)
  })

  it('[gym] invalid bodies get FastAPI 422 shapes and malformed JSON is json_invalid', async () => {
    const { post } = gym('counter')
    const missing = await post('/increment_counter', {})
    expect(missing.status).toBe(422)
    expect(missing.body).toEqual({
      detail: [{ type: 'missing', loc: ['body', 'count'], msg: 'Field required', input: {} }],
    })
    const wrongType = await post('/increment_counter', { count: 'x' })
    expect(wrongType.status).toBe(422)
    const malformed = await post('/increment_counter', null, { raw: '{"count":' })
    expect(malformed.status).toBe(422)
    expect((malformed.body['detail'] as { type: string }[])[0]?.type).toBe('json_invalid')
    expect((await post('/get_counter_value', {})).body).toEqual({ count: 0 })
  })

  it('[gym] a Workplace tool call before seed_session is the reference 400, tool errors are 200', async () => {
    const { post } = gym('workplace')
    const early = await post('/email_delete_email', { email_id: '00000001' })
    expect(early.status).toBe(400)
    expect(early.body).toEqual({
      detail: 'Session not initialized. Please call seed_session first.',
    })
    expect((await post('/seed_session', {})).body).toEqual({})
    const unknown = await post('/no_such_tool', {})
    expect(unknown).toMatchObject({
      status: 200,
      body: { output: "Error executing tool 'no_such_tool': 'no_such_tool'" },
    })
    const deleted = await post('/email_delete_email', { email_id: '00000001' })
    expect(deleted.body).toEqual({ output: 'Email deleted successfully.' })
  })

  it('[gym] a Workplace task replayed from its ground truth verifies with reward 1', async () => {
    const { post } = gym('workplace')
    const rows = loadNodeWorkplaceData()
      .examplesJsonl.trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    const task = rows[2] as {
      ground_truth: { name: string; arguments: string }[]
      responses_create_params: unknown
    }
    await post('/seed_session', task)
    for (const call of task.ground_truth) {
      const r = await post(`/${call.name}`, JSON.parse(call.arguments))
      expect(r.status).toBe(200)
      expect(String(r.body['output'])).not.toMatch(/^Error/)
    }
    const output = task.ground_truth.map((c, i) => ({
      type: 'function_call',
      call_id: `c${i}`,
      name: c.name,
      arguments: c.arguments,
    }))
    const verify = await post('/verify', { ...task, response: responseOf(output) })
    expect(verify.body['reward']).toBe(1)
    const wrong = await post('/verify', { ...task, response: responseOf([]) })
    expect(wrong.body['reward']).toBe(0)
  })

  it('[gym] identity headers must come together, be well formed and match the path prefix', async () => {
    const { post } = gym('counter')
    const cases: Record<string, string>[] = [
      { 'x-nemo-gym-rollout-id': 'r1' },
      { 'x-nemo-gym-attempt-index': '0' },
      { 'x-nemo-gym-rollout-id': '.r1', 'x-nemo-gym-attempt-index': '0' },
      { 'x-nemo-gym-rollout-id': 'r1', 'x-nemo-gym-attempt-index': '-1' },
      { 'x-nemo-gym-rollout-id': 'r1, r2', 'x-nemo-gym-attempt-index': '0' },
    ]
    for (const headers of cases) {
      const r = await post('/seed_session', { initial_count: 1 }, { headers })
      expect(r.status).toBe(409)
      expect((r.body['error'] as { code: string }).code).toBe('execution_identity_mismatch')
    }
    const mismatch = await post(
      '/ng-rollout/r1-a2/seed_session',
      { initial_count: 1 },
      { headers: { 'x-nemo-gym-rollout-id': 'r1', 'x-nemo-gym-attempt-index': '1' } },
    )
    expect(mismatch.status).toBe(409)
    const matching = await post(
      '/ng-rollout/r1-a2/seed_session',
      { initial_count: 1 },
      { headers: { 'x-nemo-gym-rollout-id': 'r1', 'x-nemo-gym-attempt-index': '2' } },
    )
    expect(matching.status).toBe(200)
    // Nothing was half-applied: the refused seeds left no session behind.
    expect(
      (
        await post(
          '/get_counter_value',
          {},
          { headers: { 'x-nemo-gym-rollout-id': 'r1', 'x-nemo-gym-attempt-index': '2' } },
        )
      ).body,
    ).toEqual({ count: 1 })
  })

  it('[resources.receipt-mismatch] [resources.revision-cas] [gym] revisions, idempotent receipts and compare-and-set apply to identified sessions', async () => {
    const { post } = gym('counter')
    const who = { 'x-nemo-gym-rollout-id': 'r5', 'x-nemo-gym-attempt-index': '0' }
    expect(await post('/increment_counter', { count: 1 }, { headers: who })).toMatchObject({
      status: 409,
      body: { error: { code: 'resources_session_unbound' } },
    })
    await post('/seed_session', { initial_count: 10 }, { headers: who })
    const once = { ...who, 'x-nemo-gym-resource-request-id': 'req-1' }
    const first = await post('/increment_counter', { count: 5 }, { headers: once })
    const replay = await post('/increment_counter', { count: 5 }, { headers: once })
    expect(replay.body).toEqual(first.body)
    expect((await post('/get_counter_value', {}, { headers: who })).body).toEqual({ count: 15 })
    expect(await post('/increment_counter', { count: 6 }, { headers: once })).toMatchObject({
      status: 409,
      body: { error: { code: 'resource_request_receipt_error' } },
    })
    const stale = await post(
      '/increment_counter',
      { count: 1 },
      { headers: { ...who, 'x-nemo-gym-expected-resource-state-revision': '0' } },
    )
    expect(stale).toMatchObject({
      status: 409,
      body: { error: { code: 'resource_revision_mismatch' } },
    })
    for (const bad of [
      { 'x-nemo-gym-expected-resource-state-revision': '-1' },
      { 'x-nemo-gym-resource-request-id': 'x'.repeat(513) },
    ] as Record<string, string>[]) {
      expect(
        await post('/increment_counter', { count: 1 }, { headers: { ...who, ...bad } }),
      ).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } })
    }
    expect((await post('/get_counter_value', {}, { headers: who })).body).toEqual({ count: 15 })
  })

  it('[resources.receipt-replay-bytes] a replayed mutation sends the bytes first sent; query and cookies are part of the input digest', async () => {
    const { app, mountPath, post, cookie: jar } = gym('blackjack')
    const who = { 'x-nemo-gym-rollout-id': 'r7', 'x-nemo-gym-attempt-index': '0' }
    expect(
      (await post('/reset', { responses_create_params: RCP, seed: 0 }, { headers: who })).status,
    ).toBe(200)
    const cookie = jar() ?? ''
    expect(cookie).toMatch(/^cutover_blackjack_session=/)
    const send = async (route: string, headers: Record<string, string>) =>
      app.request(`${mountPath}${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, ...who, ...headers },
        body: JSON.stringify({
          responses_create_params: RCP,
          response: say('<action>hit</action>'),
        }),
      })
    const once = { 'x-nemo-gym-resource-request-id': 'hit-1' }
    const first = await send('/step', once)
    const firstText = await first.text()
    expect(first.status).toBe(200)
    // The reference's key order (observation first), not sorted keys.
    expect(firstText.startsWith('{"observation":')).toBe(true)
    const replay = await send('/step', once)
    expect(replay.status).toBe(200)
    expect(await replay.text()).toBe(firstText)
    expect(replay.headers.get('x-nemo-gym-resource-state-revision')).toBe(
      first.headers.get('x-nemo-gym-resource-state-revision'),
    )
    // The same id with another query or other cookies is another input.
    const otherQuery = await send('/step?verbose=1', once)
    expect(otherQuery.status).toBe(409)
    expect(((await otherQuery.json()) as { error: { code: string } }).error.code).toBe(
      'resource_request_receipt_error',
    )
    const otherCookie = await send('/step', { ...once, cookie: `${cookie}; extra=1` })
    expect(((await otherCookie.json()) as { error: { code: string } }).error.code).toBe(
      'resource_request_receipt_error',
    )
  })

  it('[resources.receipt-replay-bytes] a mutation with a receipt answers the bytes the same mutation without one answers (Python JSON through the response model)', async () => {
    const answer = async (rollout: string, receipt: Record<string, string>) => {
      const { post, app, mountPath, cookie: jar } = gym('blackjack')
      const who = { 'x-nemo-gym-rollout-id': rollout, 'x-nemo-gym-attempt-index': '0' }
      await post('/reset', { responses_create_params: RCP, seed: 0 }, { headers: who })
      const body = JSON.stringify({
        responses_create_params: RCP,
        response: say('<action>stand</action>'),
      })
      const step = () =>
        app.request(`${mountPath}/step`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: jar() ?? '', ...who, ...receipt },
          body,
        })
      return [await (await step()).text(), await (await step()).text()]
    }
    const [plain] = await answer('r1', {})
    // Python's float: a won hand's reward is `1.0`.
    expect(plain).toContain('"reward":1.0')
    expect(await answer('r2', { 'x-nemo-gym-resource-request-id': 'stand-1' })).toEqual([
      plain,
      plain,
    ])
  })

  it('[resources.receipt-evicted] over HTTP an evicted identity is 409 resource_receipt_evicted (history bounds shrunk to 1 session and 1 tombstone)', async () => {
    const { post } = gym('counter', {
      receiptHistory: { retiredSessions: 1, evictionTombstones: 1 },
    })
    const close = async (r: string) => {
      const who = { 'x-nemo-gym-rollout-id': r, 'x-nemo-gym-attempt-index': '0' }
      await post('/seed_session', { initial_count: 0 }, { headers: who })
      await post(
        '/increment_counter',
        { count: 1 },
        { headers: { ...who, 'x-nemo-gym-resource-request-id': `${r}-1` } },
      )
      const v = await post(
        '/verify',
        { responses_create_params: RCP, response: responseOf([]), expected_count: 1 },
        { headers: who },
      )
      expect(v.body['reward']).toBe(1)
      return who
    }
    const first = await close('r1')
    await close('r2')
    const retry = await post(
      '/increment_counter',
      { count: 1 },
      { headers: { ...first, 'x-nemo-gym-resource-request-id': 'r1-1' } },
    )
    expect(retry).toMatchObject({
      status: 409,
      body: { error: { code: 'resource_receipt_evicted' } },
    })
    await close('r3')
    // Two evicted keys exceed the one remembered: saturated, every identified request is refused.
    const fresh = await post(
      '/seed_session',
      { initial_count: 0 },
      { headers: { 'x-nemo-gym-rollout-id': 'r9', 'x-nemo-gym-attempt-index': '0' } },
    )
    expect(fresh).toMatchObject({
      status: 409,
      body: { error: { code: 'resource_receipt_evicted' } },
    })
  })

  it('[gym] GET / answers ok, /reverify_mode exists where the reference has it, wrong methods are 405', async () => {
    const counter = gym('counter')
    expect(await (await counter.app.request('/gym/counter/')).json()).toEqual({ status: 'ok' })
    expect(await (await counter.app.request('/gym/counter/reverify_mode')).json()).toBe('unknown')
    expect((await counter.app.request('/gym/counter/increment_counter')).status).toBe(405)
    const blackjack = gym('blackjack')
    expect((await blackjack.app.request('/gym/blackjack/reverify_mode')).status).toBe(404)
    expect((await blackjack.post('/seed_session', {})).status).toBe(404)
  })

  it('[gym] /aggregate_metrics summarises verify responses per task and overall', async () => {
    const { post } = gym('counter')
    const rows = [
      { _ng_task_index: 0, _ng_rollout_index: 0, reward: 1 },
      { _ng_task_index: 0, _ng_rollout_index: 1, reward: 0 },
      { _ng_task_index: 1, _ng_rollout_index: 0, reward: 1 },
    ]
    const r = await post('/aggregate_metrics', { verify_responses: rows })
    expect(r.status).toBe(200)
    expect((r.body['agent_metrics'] as Record<string, number>)['mean/reward']).toBeCloseTo(2 / 3)
    expect(r.body['key_metrics']).toEqual({ 'mean/reward': 2 / 3 })
    const groups = r.body['group_level_metrics'] as Record<string, unknown>[]
    expect(
      groups.map((g) => [
        g['num_rollouts'],
        g['expected_num_rollouts'],
        g['missing_num_rollouts'],
        g['reward_profile_completion_pct'],
      ]),
    ).toEqual([
      [2, 2, 0, 100],
      [1, 1, 0, 100],
    ])
    // A one-rollout task has no sample std anywhere: the reference's profiler reports 0 for its
    // complete columns.
    expect(groups[1]?.['std/reward']).toBe(0)
    expect((await post('/aggregate_metrics', {})).status).toBe(422)
    // The reference's materialisation refuses a repeated (task, rollout) key and a row without a
    // task.
    const duplicate = await post('/aggregate_metrics', { verify_responses: [rows[0], rows[0]] })
    expect(duplicate).toMatchObject({
      status: 500,
      body: "ValueError('Duplicate materialized input row for rollout key (0, 0)')",
    })
    expect(await post('/aggregate_metrics', { verify_responses: [{ reward: 1 }] })).toMatchObject({
      status: 500,
      body: "KeyError('_ng_task_index')",
    })
    expect(
      await post('/aggregate_metrics', { verify_responses: [{ _ng_task_index: 3, reward: 1 }] }),
    ).toMatchObject({ status: 500, body: "KeyError('_ng_rollout_index')" })
    // Rollouts are profiled in (task, rollout) order; usage counts join the numeric fields.
    const usage = await post('/aggregate_metrics', {
      verify_responses: [
        {
          _ng_task_index: 0,
          _ng_rollout_index: 1,
          reward: 0,
          response: { usage: { input_tokens: 10 } },
        },
        {
          _ng_task_index: 0,
          _ng_rollout_index: 0,
          reward: 1,
          response: { usage: { input_tokens: 30 } },
        },
      ],
    })
    const infos = (usage.body['group_level_metrics'] as { rollout_infos: unknown[] }[])[0]
      ?.rollout_infos
    expect(infos).toEqual([
      { rollout_id: '0:0', _ng_task_index: 0, _ng_rollout_index: 0, reward: 1, input_tokens: 30 },
      { rollout_id: '0:1', _ng_task_index: 0, _ng_rollout_index: 1, reward: 0, input_tokens: 10 },
    ])
    expect(usage.body['key_metrics']).toEqual({ 'mean/reward': 0.5, 'mean/input_tokens': 20 })
  })

  it('[gym] a body over the limit is 413 in the reference detail shape', async () => {
    const { post } = gym('counter')
    const r = await post('/increment_counter', null, {
      raw: JSON.stringify({ count: 1, pad: 'x'.repeat(5 * 1024 * 1024) }),
    })
    expect(r.status).toBe(413)
    expect(String(r.body['detail'])).toContain('4194304 bytes')
  })
})

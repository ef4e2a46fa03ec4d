import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { MAX_RESPONSE_BYTES } from '../control/fetchJson.ts'
import type { ControlCallRecord } from './controlCall.ts'
import { controlCall } from './controlCall.ts'
import type { FleetUrls } from './discoverFleet.ts'
import { discoverFleet } from './discoverFleet.ts'

const TOKEN = 'test-token-discover'
const servers: Server[] = []
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))))
})

/** A loopback HTTP server answering with `handler`; resolves with its base URL. */
async function serve(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<string> {
  const server = createServer(handler)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/**
 * What a participant of `component` answers on GET /ng-control/v1/capabilities (as the real servers
 * do).
 */
function capabilities(component: string, name: string): Record<string, unknown> {
  const model = component === 'responses_api_models'
  return {
    component,
    name,
    schema_version: 1,
    admission_states: model ? ['accepting', 'draining', 'paused'] : ['accepting', 'paused'],
    checkpoint_mode: 'export_restore',
    multi_process: { mode: 'single_worker', num_workers: 1 },
    ...(model ? { instance_role: 'policy' } : {}),
    phase: 'idle',
  }
}

/**
 * A fake participant: its capabilities (with `override` merged in) behind the bearer token; the
 * Authorization headers it saw.
 */
async function participant(
  component: string,
  name: string,
  override: Record<string, unknown> = {},
): Promise<{ url: string; auth: (string | undefined)[] }> {
  const auth: (string | undefined)[] = []
  const url = await serve((req, res) => {
    auth.push(req.headers.authorization)
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'unauthorized', message: 'bearer token required' } }))
      return
    }
    if (req.method !== 'GET' || req.url !== '/ng-control/v1/capabilities') {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'not_found', message: 'no such route' } }))
      return
    }
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ ...capabilities(component, name), ...override }))
  })
  return { url, auth }
}

/** A fleet of five fake participants; `override` changes one slot's capabilities. */
async function fleet(
  override: { slot?: 'model' | 'agent' | 'counter'; caps?: Record<string, unknown> } = {},
): Promise<{ urls: FleetUrls; auth: (string | undefined)[][] }> {
  const caps = (slot: string) => (override.slot === slot ? (override.caps ?? {}) : {})
  const model = await participant('responses_api_models', 'policy', caps('model'))
  const agent = await participant('responses_api_agents', 'simple_agent', caps('agent'))
  const blackjack = await participant('resources_servers', 'blackjack', caps('blackjack'))
  const counter = await participant('resources_servers', 'counter', caps('counter'))
  const workplace = await participant('resources_servers', 'workplace', caps('workplace'))
  return {
    urls: {
      model: model.url,
      agent: agent.url,
      resources: { blackjack: blackjack.url, counter: counter.url, workplace: workplace.url },
    },
    auth: [model.auth, agent.auth, blackjack.auth, counter.auth, workplace.auth],
  }
}

describe('HTTP controller: discovery', () => {
  it('[controller.discover] reads GET /ng-control/v1/capabilities of every participant with the bearer token and takes the names (and model workers) they report', async () => {
    const { urls, auth } = await fleet({
      slot: 'model',
      caps: { multi_process: { mode: 'coordinator', num_workers: 2 } },
    })
    const calls: ControlCallRecord[] = []
    const found = await discoverFleet(urls, TOKEN, (r) => calls.push(r))
    expect(found.ok).toBe(true)
    if (!found.ok) return
    expect(found.value).toEqual({
      model: { url: urls.model, name: 'policy', workers: 2 },
      agent: { url: urls.agent, name: 'simple_agent' },
      resources: {
        blackjack: { url: urls.resources.blackjack, name: 'blackjack' },
        counter: { url: urls.resources.counter, name: 'counter' },
        workplace: { url: urls.resources.workplace, name: 'workplace' },
      },
    })
    expect(calls.map((c) => [c.participant, c.endpoint, c.status, c.code])).toEqual(
      [
        'policy_model',
        'agent',
        'resources_blackjack',
        'resources_counter',
        'resources_workplace',
      ].map((p) => [p, 'capabilities', 200, 'ok']),
    )
    for (const seen of auth) expect(seen).toEqual([`Bearer ${TOKEN}`])
  })

  it.each([
    [
      'a resources server in the agent slot',
      'agent',
      { component: 'resources_servers' },
      /agent \(.*\) GET \/ng-control\/v1\/capabilities: component is "resources_servers", expected responses_api_agents/,
    ],
    [
      'schema_version 2',
      'counter',
      { schema_version: 2 },
      /resources_counter \(.*\) GET \/ng-control\/v1\/capabilities: schema_version 2 is not 1/,
    ],
    [
      'a participant that is not export_restore',
      'counter',
      { checkpoint_mode: 'stateless' },
      /resources_counter .*checkpoint_mode "stateless" is not export_restore/,
    ],
    [
      'several workers without a coordinator',
      'model',
      { multi_process: { mode: 'unmanaged', num_workers: 4 } },
      /policy_model .*unmanaged/,
    ],
    [
      'a model that is not a policy instance',
      'model',
      { instance_role: 'reference' },
      /policy_model .*not a policy instance/,
    ],
    [
      'a model that cannot pause',
      'model',
      { admission_states: ['accepting'] },
      /policy_model .*admission_states lack accepting\/draining\/paused/,
    ],
    ['a participant without a name', 'agent', { name: '' }, /agent .*no name/],
  ] as const)(
    '[controller.discover] refuses %s with invalid_response naming the participant and endpoint',
    async (_what, slot, caps, message) => {
      const { urls } = await fleet({ slot, caps })
      const found = await discoverFleet(urls, TOKEN, () => undefined)
      expect(found.ok).toBe(false)
      if (found.ok) return
      expect(found.error.code).toBe('invalid_response')
      expect(found.error.message).toMatch(message)
    },
  )

  it('[wire.answer-schemas] capabilities that do not fit (no multi_process, a numeric name) are participant_protocol_error naming the participant, route and field', async () => {
    for (const [caps, field] of [
      [{ multi_process: undefined }, 'multi_process'],
      [{ name: 7 }, 'name'],
    ] as const) {
      const { urls } = await fleet({ slot: 'counter', caps })
      const found = await discoverFleet(urls, TOKEN, () => undefined)
      expect(found.ok).toBe(false)
      if (found.ok) continue
      expect(found.error.code).toBe('participant_protocol_error')
      expect(found.error.message).toMatch(
        new RegExp(
          `^resources_counter \\(http://127\\.0\\.0\\.1:\\d+\\) GET /ng-control/v1/capabilities: the answer does not fit: ${field}: `,
        ),
      )
    }
  })

  it('[controller.discover] an unreachable participant is transport_error, one without control routes or refusing the token names its status and code', async () => {
    const { urls } = await fleet()
    const closed = await serve(() => undefined)
    await new Promise((resolve) => servers.pop()?.close(resolve))
    const unreachable = await discoverFleet({ ...urls, agent: closed }, TOKEN, () => undefined)
    expect(unreachable.ok).toBe(false)
    if (!unreachable.ok) {
      expect(unreachable.error.code).toBe('transport_error')
      expect(unreachable.error.message).toContain(
        `agent (${closed}) GET /ng-control/v1/capabilities: transport_error`,
      )
    }
    // Not a Cutover participant at all: a web server answering 404 with a page.
    const unknown = await serve((_req, res) =>
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'),
    )
    const notOurs = await discoverFleet(
      { ...urls, resources: { ...urls.resources, workplace: unknown } },
      TOKEN,
      () => undefined,
    )
    expect(notOurs.ok).toBe(false)
    if (!notOurs.ok)
      expect(notOurs.error).toMatchObject({
        code: 'invalid_response',
        message: expect.stringContaining(
          `resources_workplace (${unknown}) GET /ng-control/v1/capabilities: invalid_response: answer (HTTP 404) is not JSON`,
        ) as unknown,
      })
    const wrongToken = await discoverFleet(urls, 'not-the-token', () => undefined)
    expect(wrongToken.ok).toBe(false)
    if (!wrongToken.ok)
      expect(wrongToken.error).toMatchObject({
        code: 'unauthorized',
        message: expect.stringContaining(
          `policy_model (${urls.model}) GET /ng-control/v1/capabilities: HTTP 401 unauthorized`,
        ) as unknown,
      })
  })
})

describe('HTTP controller: transport limits', () => {
  /** One control call to a server answering `status` with `body` (a string sent as is). */
  async function callWith(
    status: number,
    body: string | Buffer,
    timeoutMs?: number,
  ): Promise<{
    result: Awaited<ReturnType<typeof controlCall>>
    record: ControlCallRecord | undefined
    url: string
  }> {
    const url = await serve((_req, res) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(body),
    )
    const records: ControlCallRecord[] = []
    const result = await controlCall(
      { participant: 'resources_counter', url },
      TOKEN,
      'POST',
      'resources-checkpoint/prepare',
      { schema_version: 1 },
      (r) => records.push(r),
      timeoutMs,
    )
    return { result, record: records[0], url }
  }

  it('[controller.transport-limits] an answer over 1 MiB is response_too_large (cut off while streaming); exactly 1 MiB is read', async () => {
    // {"pad":"xx…"} is 10 bytes around the padding.
    const ofSize = (bytes: number) => JSON.stringify({ pad: 'x'.repeat(bytes - 10) })
    expect(Buffer.byteLength(ofSize(MAX_RESPONSE_BYTES))).toBe(MAX_RESPONSE_BYTES)
    const atLimit = await callWith(200, ofSize(MAX_RESPONSE_BYTES))
    expect(atLimit.result.ok).toBe(true)
    const over = await callWith(200, ofSize(MAX_RESPONSE_BYTES + 1))
    expect(over.result.ok).toBe(false)
    if (!over.result.ok) {
      expect(over.result.error.code).toBe('response_too_large')
      expect(over.result.error.message).toContain(
        `resources_counter (${over.url}) POST /ng-control/v1/resources-checkpoint/prepare: response_too_large`,
      )
    }
    expect(over.record).toMatchObject({
      participant: 'resources_counter',
      url: over.url,
      endpoint: 'resources-checkpoint/prepare',
      status: null,
      code: 'response_too_large',
    })
  })

  it('[controller.transport-limits] a malformed answer is invalid_response; a refusal keeps its code; every error names participant, endpoint, status and code', async () => {
    const notJson = await callWith(200, '{"state": "prepared"')
    expect(notJson.result.ok).toBe(false)
    if (!notJson.result.ok)
      expect(notJson.result.error).toMatchObject({
        code: 'invalid_response',
        message: expect.stringContaining(
          `resources_counter (${notJson.url}) POST /ng-control/v1/resources-checkpoint/prepare: invalid_response: answer (HTTP 200) is not JSON`,
        ) as unknown,
      })
    const notObject = await callWith(200, '42')
    expect(notObject.result.ok).toBe(false)
    if (!notObject.result.ok)
      expect(notObject.result.error).toMatchObject({
        code: 'invalid_response',
        message: expect.stringContaining(
          'POST /ng-control/v1/resources-checkpoint/prepare: HTTP 200: the answer is not a JSON object',
        ) as unknown,
      })
    const refused = await callWith(
      409,
      JSON.stringify({
        error: { code: 'invalid_phase', message: 'prepare is not allowed in committed_paused' },
      }),
    )
    expect(refused.result.ok).toBe(false)
    if (!refused.result.ok)
      expect(refused.result.error).toMatchObject({
        code: 'invalid_phase',
        message: expect.stringContaining(
          `resources_counter (${refused.url}) POST /ng-control/v1/resources-checkpoint/prepare: HTTP 409 invalid_phase: prepare is not allowed in committed_paused`,
        ) as unknown,
      })
    expect(refused.record).toMatchObject({ status: 409, code: 'invalid_phase' })
    // A code outside the protocol's is no code the controller can act on: invalid_response, the
    // code it sent kept in the message.
    const foreign = await callWith(500, JSON.stringify({ error: { code: 'kaboom' } }))
    expect(foreign.result.ok).toBe(false)
    if (!foreign.result.ok)
      expect(foreign.result.error).toMatchObject({
        code: 'invalid_response',
        message: expect.stringContaining('HTTP 500 kaboom') as unknown,
      })
    const silent = await serve(() => undefined)
    const late = await controlCall(
      { participant: 'agent', url: silent },
      TOKEN,
      'GET',
      'capabilities',
      undefined,
      () => undefined,
      200,
    )
    expect(late.ok).toBe(false)
    if (!late.ok)
      expect(late.error).toMatchObject({
        code: 'deadline_exceeded',
        message: expect.stringContaining(
          `agent (${silent}) GET /ng-control/v1/capabilities: deadline_exceeded`,
        ) as unknown,
      })
  })
})

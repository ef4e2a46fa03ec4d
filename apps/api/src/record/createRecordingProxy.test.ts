import { createHash } from 'node:crypto'
import { createServer, request } from 'node:http'
import type { IncomingMessage, Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRecordingProxy } from './createRecordingProxy.ts'
import type { ExchangeLine } from './createRecordingProxy.ts'
import { createRedactor } from './createRedactor.ts'
import { openRecordingWriter } from './RecordingWriter.ts'

const TOKEN = 'sekrit-control-token-4242'
const dir = mkdtempSync(join(tmpdir(), 'cutover-proxy-'))
const servers: Server[] = []
let upstream = ''
let proxyUrl = ''
let deadProxyUrl = ''
const lines: ExchangeLine[] = []
const file = join(dir, 'exchanges.jsonl')
const writer = openRecordingWriter(file)
let seen: { headers: string[]; body: Buffer; url: string } | undefined

const listen = (server: Server): Promise<string> =>
  new Promise((resolve) => {
    servers.push(server)
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    )
  })

/** A raw request through node:http: the status line, raw headers and body bytes as received. */
function send(
  url: string,
  options: { method?: string; path: string; headers?: [string, string][]; body?: Buffer },
): Promise<{ status: number; message: string; headers: string[]; body: Buffer; chunks: number[] }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url)
    const req = request(
      {
        hostname: u.hostname,
        port: u.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: [['Host', u.host], ...(options.headers ?? [])].flat(),
      },
      (res: IncomingMessage) => {
        const parts: Buffer[] = []
        const chunks: number[] = []
        res.on('data', (c: Buffer) => {
          parts.push(c)
          chunks.push(Date.now())
        })
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            message: res.statusMessage ?? '',
            headers: res.rawHeaders,
            body: Buffer.concat(parts),
            chunks,
          }),
        )
      },
    )
    req.on('error', reject)
    req.end(options.body)
  })
}

beforeAll(async () => {
  upstream = await listen(
    createServer((req, res) => {
      const parts: Buffer[] = []
      req.on('data', (c: Buffer) => parts.push(c))
      req.on('end', () => {
        seen = { headers: req.rawHeaders, body: Buffer.concat(parts), url: req.url ?? '' }
        const path = (req.url ?? '').split('?')[0]
        if (path === '/stream') {
          // A chunked stream of three events, the next one written only after the client can
          // have seen the first: the proxy must pass each on as it comes.
          res.writeHead(200, 'Streaming', {
            'content-type': 'text/event-stream',
            'x-nemo-gym-model-call-id': 'policy-call-000007',
          })
          let n = 0
          const tick = (): void => {
            res.write(`data: ${n}\n\n`)
            n++
            if (n < 3) setTimeout(tick, 150)
            else res.end()
          }
          tick()
          return
        }
        if (path === '/ng-control/v1/model-admission/status') {
          // A long poll: the answer comes when it comes.
          setTimeout(() => {
            res.setHeader('content-type', 'application/json')
            res.end(JSON.stringify({ state: 'paused', token_echo: TOKEN }))
          }, 300)
          return
        }
        if (path === '/big') {
          res.writeHead(200, { 'content-type': 'application/json' })
          res.end(Buffer.concat(parts))
          return
        }
        res.writeHead(
          409,
          'Conflict-ish',
          [
            ['content-type', 'application/json'],
            ['Set-Cookie', 'a=1'],
            ['Set-Cookie', 'b=2'],
            ['X-Custom-Case', 'Kept'],
            ['retry-after', '1'],
          ].flat(),
        )
        res.end(JSON.stringify({ error: { code: 'invalid_phase', message: `no: ${TOKEN}` } }))
      })
    }),
  )
  const redactor = createRedactor([TOKEN])
  proxyUrl = await listen(
    createRecordingProxy({
      name: 'policy',
      upstream: new URL(upstream),
      redactor,
      maxBodyBytes: 1024,
      record: (line) => {
        lines.push(line)
        writer.append(line)
      },
    }),
  )
  deadProxyUrl = await listen(
    createRecordingProxy({
      name: 'counter',
      upstream: new URL('http://127.0.0.1:9'),
      redactor,
      maxBodyBytes: 1024,
      record: (line) => {
        lines.push(line)
        writer.append(line)
      },
    }),
  )
})

afterAll(async () => {
  await writer.close()
  for (const s of servers) s.closeAllConnections()
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))))
  rmSync(dir, { recursive: true, force: true })
})

const last = (): ExchangeLine => lines[lines.length - 1] as ExchangeLine

describe('the recording proxy', () => {
  it('[record.forward-unchanged] forwards method, path, query, headers (order, case, duplicates) and body bytes, and answers status, message, headers and body as the upstream did', async () => {
    const body = Buffer.from('{"checkpoint_id":"ck-1",  "odd spacing": true}')
    const direct = await send(upstream, {
      method: 'POST',
      path: '/ng-control/v1/agent-checkpoint/prepare?x=1&x=2',
      headers: [
        ['X-Mixed-Case', 'One'],
        ['x-nemo-gym-rollout-id', 'r1'],
        ['content-type', 'application/json'],
      ],
      body,
    })
    const sentDirect = seen
    const proxied = await send(proxyUrl, {
      method: 'POST',
      path: '/ng-control/v1/agent-checkpoint/prepare?x=1&x=2',
      headers: [
        ['X-Mixed-Case', 'One'],
        ['x-nemo-gym-rollout-id', 'r1'],
        ['content-type', 'application/json'],
      ],
      body,
    })
    const sentProxied = seen
    // What the upstream received: the same request (Host aside, the upstream's own).
    const withoutHost = (h: string[]) =>
      h.filter((_, i) =>
        i % 2 === 0 ? h[i]?.toLowerCase() !== 'host' : h[i - 1]?.toLowerCase() !== 'host',
      )
    const hop = new Set(['connection', 'keep-alive'])
    const plain = (h: string[]) =>
      withoutHost(h).filter(
        (_, i, all) => !hop.has((i % 2 === 0 ? all[i] : all[i - 1])?.toLowerCase() ?? ''),
      )
    expect(plain(sentProxied?.headers ?? [])).toEqual(plain(sentDirect?.headers ?? []))
    expect(sentProxied?.url).toBe(sentDirect?.url)
    expect(sentProxied?.body.equals(body)).toBe(true)
    // What the client received: the same answer.
    expect(proxied.status).toBe(409)
    expect(proxied.message).toBe('Conflict-ish')
    const answer = (h: string[]) =>
      plain(h).filter((_, i, all) => (i % 2 === 0 ? all[i] : all[i - 1])?.toLowerCase() !== 'date')
    expect(answer(proxied.headers)).toEqual(answer(direct.headers))
    expect(proxied.body.equals(direct.body)).toBe(true)
    // And what the recording holds.
    expect(last()).toMatchObject({
      participant: 'policy',
      method: 'POST',
      path: '/ng-control/v1/agent-checkpoint/prepare',
      query: { x: ['1', '2'] },
      request: { checkpoint_id: 'ck-1', 'odd spacing': true },
      status: 409,
      headers: {
        request: { 'x-nemo-gym-rollout-id': 'r1', 'content-type': 'application/json' },
        response: { 'retry-after': '1', 'content-type': 'application/json' },
      },
    })
    expect(typeof last()['t']).toBe('number')
    expect(last()['t_end'] as number).toBeGreaterThanOrEqual(last()['t'] as number)
    expect(last()['t_end_mono'] as number).toBeGreaterThanOrEqual(last()['t_mono'] as number)
  })

  it('[record.forward-unchanged] a chunked stream streams through (the first event arrives before the last is written); a long poll waits and is one exchange', async () => {
    const streamed = await send(proxyUrl, { path: '/stream' })
    expect(streamed.body.toString()).toBe('data: 0\n\ndata: 1\n\ndata: 2\n\n')
    expect(streamed.chunks.length).toBeGreaterThanOrEqual(3)
    expect(streamed.headers).toContain('chunked')
    expect(last()).toMatchObject({
      path: '/stream',
      status: 200,
      response: 'data: 0\n\ndata: 1\n\ndata: 2\n\n',
    })
    expect((last()['headers'] as { response: object }).response).toMatchObject({
      'x-nemo-gym-model-call-id': 'policy-call-000007',
    })
    const before = lines.length
    const poll = await send(proxyUrl, {
      path: '/ng-control/v1/model-admission/status?checkpoint_id=ck-1&wait_state=paused&timeout_s=5',
    })
    expect(JSON.parse(poll.body.toString())).toMatchObject({ state: 'paused' })
    expect(lines.length).toBe(before + 1)
    expect(last()['ms'] as number).toBeGreaterThanOrEqual(250)
  })

  it('[record.no-secret] the Authorization header, the control token and any credential it carried are never written, wherever they appear', async () => {
    const other = 'a-credential-only-the-header-knew'
    await send(proxyUrl, {
      method: 'POST',
      path: `/ng-control/v1/agent-checkpoint/commit?token=${TOKEN}&note=${other}`,
      headers: [
        ['Authorization', `Bearer ${other}`],
        ['content-type', 'application/json'],
      ],
      body: Buffer.from(
        JSON.stringify({ api_key: 'k-123456', text: `use Bearer ${TOKEN} or ${other}` }),
      ),
    })
    await send(proxyUrl, {
      path: '/ng-control/v1/model-admission/status?timeout_s=1',
      headers: [['authorization', `Bearer ${TOKEN}`]],
    })
    await writer.flush()
    const text = readFileSync(file, 'utf8')
    expect(text).not.toContain(TOKEN)
    expect(text).not.toContain(other)
    expect(text).not.toContain('k-123456')
    expect(text.toLowerCase()).not.toContain('"authorization"')
    expect(text).not.toMatch(/Bearer (?!\*\*\*)/)
    expect(lines[lines.length - 2]).toMatchObject({ auth: 'Bearer ***' })
  })

  it('[record.bounded-body] a body over the bound keeps its head, its size and the SHA-256 of the whole', async () => {
    const big = Buffer.from(JSON.stringify({ pad: 'x'.repeat(5000) }))
    const answer = await send(proxyUrl, { method: 'POST', path: '/big', body: big })
    expect(answer.body.equals(big)).toBe(true) // forwarded whole
    const sha = createHash('sha256').update(big).digest('hex')
    for (const side of ['request_body', 'response_body'])
      expect(last()[side]).toEqual({
        bytes: big.length,
        truncated: true,
        sha256: sha,
        encoding: 'text',
      })
    expect((last()['request'] as string).length).toBe(1024)
  })

  it('[record.upstream-down] an upstream that does not answer: 502 in the error envelope, recorded like any answer', async () => {
    const answer = await send(deadProxyUrl, { path: '/ng-control/v1/capabilities' })
    expect(answer.status).toBe(502)
    const body = JSON.parse(answer.body.toString()) as { error: { code: string; message: string } }
    expect(body.error.code).toBe('transport_error')
    expect(body.error.message).toMatch(/could not reach http:\/\/127\.0\.0\.1:9: ECONNREFUSED/)
    expect(last()).toMatchObject({
      participant: 'counter',
      status: 502,
      response: body,
      transport_error: expect.stringMatching(/ECONNREFUSED/),
    })
  })
})

import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ServerType } from '@hono/node-server'
import type { RunView } from '@cutover/core/contracts'
import type { RunManager } from './runs/RunManager.ts'
import { startServer } from './server.ts'
import { tempDataDir, testDeps } from './testing/apiHarness.ts'
import { rawRequest } from './testing/rawRequest.ts'

const TOKEN = 'sec-token-3b7e'
const JSON_TYPE = { 'content-type': 'application/json' }
const RUN = JSON.stringify({ scenario: 'happy-path', rollouts: 2 })

describe('the local server refuses foreign hosts and cross-site state changes (real HTTP on 127.0.0.1)', () => {
  const { dir, cleanup } = tempDataDir()
  let server: ServerType
  let base = ''
  let port = 0
  let runs: RunManager
  /** The same-origin headers the web app's fetch sends. */
  let own: Record<string, string> = {}
  const runFolders = () => readdirSync(join(dir, 'runs')).sort()
  const runIds = async () =>
    ((await rawRequest(base, 'GET', '/api/runs')).json().runs as RunView[]).map((r) => r.id).sort()

  beforeAll(async () => {
    const started = await startServer({
      port: 0,
      host: '127.0.0.1',
      serveWeb: false,
      deps: testDeps(dir, { controlToken: TOKEN }),
    })
    server = started.server
    base = started.url
    port = Number(new URL(base).port)
    runs = started.runs
    own = { ...JSON_TYPE, origin: base }
    const first = await rawRequest(base, 'POST', '/api/runs', own, RUN)
    expect(first.status).toBe(201)
    await runs.idle()
  })
  afterAll(() => {
    server.close()
    cleanup()
  })

  it('[security] a foreign Host is 421 host_not_allowed on every route, and a POST with one creates nothing', async () => {
    const before = await runIds()
    for (const host of [
      'evil.example.com',
      `evil.example.com:${port}`,
      `127.0.0.1:${port + 1}`,
      'localhost:1',
      '127.0.0.1',
      `127.0.0.2:${port}`,
      `localhost.:${port}`,
    ]) {
      for (const [method, path] of [
        ['GET', '/api/health'],
        ['GET', '/api/runs'],
        ['GET', '/'],
        ['POST', '/gym/counter/seed_session'],
      ] as const) {
        const r = await rawRequest(
          base,
          method,
          path,
          { host, ...JSON_TYPE },
          method === 'POST' ? '{}' : undefined,
        )
        expect(r.status, `${host} ${path}`).toBe(421)
        expect(r.json()).toMatchObject({ error: { code: 'host_not_allowed' } })
      }
    }
    const created = await rawRequest(
      base,
      'POST',
      '/api/runs',
      { host: `evil.example.com:${port}`, ...JSON_TYPE },
      RUN,
    )
    expect(created.status).toBe(421)
    expect(created.json().error.code).toBe('host_not_allowed')
    expect(await runIds()).toEqual(before)
    expect(runFolders()).toEqual(before)
  })

  it('[security] the loopback names with the bound port are this server', async () => {
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      `[::1]:${port}`,
    ]) {
      const r = await rawRequest(base, 'GET', '/api/health', { host })
      expect(r.status, host).toBe(200)
      expect(r.json()).toEqual({ status: 'ok' })
    }
  })

  it('[security] a cross-site text/plain POST (no preflight needed) is 403 cross_origin_refused and creates nothing', async () => {
    const before = await runIds()
    const cases: Record<string, string>[] = [
      { 'content-type': 'text/plain', origin: 'https://evil.example.com' },
      { 'content-type': 'text/plain;charset=UTF-8', origin: 'https://evil.example.com' },
      { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example.com' },
      { 'content-type': 'multipart/form-data; boundary=x', origin: 'null' },
      { 'content-type': 'text/plain' },
      {},
    ]
    for (const headers of cases) {
      const r = await rawRequest(base, 'POST', '/api/runs', headers, RUN)
      expect(r.status, JSON.stringify(headers)).toBe(403)
      expect(r.json()).toMatchObject({ error: { code: 'cross_origin_refused' } })
    }
    expect(await runIds()).toEqual(before)
    expect(runFolders()).toEqual(before)
  })

  it('[security] a foreign Origin is refused even with JSON: POST creates nothing, DELETE deletes nothing', async () => {
    const before = await runIds()
    const [victim] = before
    for (const origin of [
      'https://evil.example.com',
      `http://evil.example.com:${port}`,
      `http://127.0.0.1:${port + 1}`,
      `https://127.0.0.1:${port}`,
      'null',
    ]) {
      const post = await rawRequest(base, 'POST', '/api/runs', { ...JSON_TYPE, origin }, RUN)
      expect(post.status, origin).toBe(403)
      expect(post.json()).toMatchObject({ error: { code: 'cross_origin_refused' } })
      const del = await rawRequest(base, 'DELETE', `/api/runs/${victim}`, { ...JSON_TYPE, origin })
      expect(del.status, origin).toBe(403)
      expect(del.json()).toMatchObject({ error: { code: 'cross_origin_refused' } })
    }
    // A DELETE that does not say JSON is refused the same way (a form or beacon cannot say it).
    expect((await rawRequest(base, 'DELETE', `/api/runs/${victim}`, {})).json().error.code).toBe(
      'cross_origin_refused',
    )
    expect(await runIds()).toEqual(before)
    expect(runFolders()).toEqual(before)
  })

  it('[security] same-origin use works: the web app (Origin is the server) and the CLI or curl (no Origin) create and delete runs', async () => {
    const before = await runIds()
    const fromPage = await rawRequest(base, 'POST', '/api/runs', own, RUN)
    expect(fromPage.status).toBe(201)
    const viaLocalhost = await rawRequest(
      base,
      'POST',
      '/api/runs',
      { ...JSON_TYPE, host: `localhost:${port}`, origin: `http://localhost:${port}` },
      RUN,
    )
    expect(viaLocalhost.status).toBe(201)
    const fromCli = await fetch(`${base}/api/runs`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: RUN,
    })
    expect(fromCli.status).toBe(201)
    await runs.idle()
    const created = [
      fromPage.json().id as string,
      viaLocalhost.json().id as string,
      ((await fromCli.json()) as RunView).id,
    ]
    expect(await runIds()).toEqual([...before, ...created].sort())
    expect((await rawRequest(base, 'DELETE', `/api/runs/${created[0]}`, own)).status).toBe(204)
    expect(
      (await fetch(`${base}/api/runs/${created[1]}`, { method: 'DELETE', headers: JSON_TYPE }))
        .status,
    ).toBe(204)
    expect(
      (await fetch(`${base}/api/runs/${created[2]}`, { method: 'DELETE', headers: JSON_TYPE }))
        .status,
    ).toBe(204)
    expect(await runIds()).toEqual(before)
    expect(runFolders()).toEqual(before)
  })

  it('[security] Gym routes keep the reference behaviour (no Origin check); control routes keep the bearer token', async () => {
    const seeded = await rawRequest(
      base,
      'POST',
      '/gym/counter/seed_session',
      { ...JSON_TYPE, origin: 'https://gym-client.example' },
      '{"initial_count":3}',
    )
    expect(seeded.status).toBe(200)
    expect(seeded.json()).toEqual({})
    const cookie = String(seeded.headers['set-cookie'])
    expect(cookie).toMatch(/^cutover_counter_session=[0-9a-f-]{36};/)
    expect(cookie).toContain('Path=/gym/counter')
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Lax')
    const op = JSON.stringify({
      schema_version: 1,
      checkpoint_id: 'c1',
      deadline_ts: Date.now() / 1000 + 60,
    })
    expect(
      (
        await rawRequest(
          base,
          'POST',
          '/gym/counter/ng-control/v1/resources-checkpoint/prepare',
          JSON_TYPE,
          op,
        )
      ).status,
    ).toBe(401)
    expect((await rawRequest(base, 'GET', '/gym/counter/ng-control/v1/capabilities')).status).toBe(
      401,
    )
    const caps = await rawRequest(base, 'GET', '/gym/counter/ng-control/v1/capabilities', {
      authorization: `Bearer ${TOKEN}`,
    })
    expect(caps.status).toBe(200)
    expect(caps.json().phase).toBe('idle')
  })

  it('[security] answers carry nosniff, no-referrer and the CSP', async () => {
    const r = await rawRequest(base, 'GET', '/api/runs')
    expect(r.headers['x-content-type-options']).toBe('nosniff')
    expect(r.headers['referrer-policy']).toBe('no-referrer')
    const csp = String(r.headers['content-security-policy'])
    for (const directive of ["script-src 'self'", "object-src 'none'", "frame-ancestors 'none'"])
      expect(csp).toContain(directive)
  })

  it('[security] no answer names the data directory: runs, checkpoints and refusals speak relative paths', async () => {
    const [id] = await runIds()
    const bodies = [
      (await rawRequest(base, 'GET', '/api/runs')).text,
      (await rawRequest(base, 'GET', `/api/runs/${id}`)).text,
      (await rawRequest(base, 'GET', `/api/runs/${id}/checkpoints`)).text,
      (await rawRequest(base, 'GET', `/api/runs/${id}/events`)).text,
      (await rawRequest(base, 'GET', `/api/runs/${id}/checkpoints/nope/files/x`)).text,
      (await rawRequest(base, 'GET', `/api/runs/${id}/checkpoints/ck-1/files/../../run.json`)).text,
    ]
    const auth = { ...JSON_TYPE, authorization: `Bearer ${TOKEN}` }
    for (const checkpoint_dir of ['/etc', join(dir, '..', 'elsewhere'), dir]) {
      const op = JSON.stringify({
        schema_version: 1,
        checkpoint_id: 'c1',
        deadline_ts: Date.now() / 1000 + 60,
        checkpoint_dir,
      })
      const r = await rawRequest(
        base,
        'POST',
        '/gym/counter/ng-control/v1/resources-checkpoint/restore',
        auth,
        op,
      )
      expect(r.status).toBeGreaterThanOrEqual(400)
      bodies.push(r.text)
    }
    const run = JSON.parse(bodies[1] ?? 'null') as RunView
    expect(run.checkpoints.length).toBeGreaterThan(0)
    for (const path of run.checkpoints)
      expect(path).toMatch(/^runs\/[0-9a-z]+\/checkpoints\/[^/]+$/)
    for (const body of bodies) expect(body).not.toContain(dir)
  })
})

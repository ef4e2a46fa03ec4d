import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { ServerType } from '@hono/node-server'
import { loadNodeWorkplaceData } from '@cutover/core/adapters'
import { REPO_ROOT } from './repoPaths.ts'
import { startServer } from './server.ts'
import { tempDataDir, testDeps } from './testing/apiHarness.ts'
import { RCP, responseOf, say } from './testing/gymBodies.ts'

/** A fetch client with a cookie jar keyed by cookie name (path scoping is checked separately). */
function client(base: string) {
  const jar = new Map<string, { value: string; path: string }>()
  return {
    jar,
    async post(path: string, body: unknown, headers: Record<string, string> = {}) {
      const cookies = [...jar.entries()]
        .filter(([, c]) => path.startsWith(c.path))
        .map(([name, c]) => `${name}=${c.value}`)
      const response = await fetch(base + path, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(cookies.length > 0 ? { cookie: cookies.join('; ') } : {}),
          ...headers,
        },
        body: JSON.stringify(body),
      })
      for (const line of response.headers.getSetCookie()) {
        const [pair, ...attrs] = line.split(';').map((s) => s.trim())
        const [name, value] = (pair ?? '').split('=')
        const cookiePath = attrs.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/'
        if (name !== undefined && value !== undefined) jar.set(name, { value, path: cookiePath })
      }
      return {
        status: response.status,
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked structurally
        body: (await response.json()) as any,
        headers: response.headers,
      }
    },
  }
}

const children: ChildProcess[] = []
const servers: ServerType[] = []
const dirs: (() => void)[] = []
afterAll(() => {
  // The bin wrapper runs tsx, which runs node: signal the whole process group we started.
  for (const child of children)
    if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM')
  for (const s of servers) s.close()
  for (const d of dirs) d()
})

/** Spawns `cutover gym ENV --port 0` and resolves with its URL once it listens. */
function spawnGym(
  env: string,
  dataDir: string,
  token: string,
  extra: string[] = [],
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [join(REPO_ROOT, 'apps/api/bin/cutover.js'), 'gym', env, '--port', '0', ...extra],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        CUTOVER_CONTROL_TOKEN: token,
        CUTOVER_DATA_DIR: dataDir,
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  )
  children.push(child)
  return new Promise((resolve, reject) => {
    let out = ''
    let errText = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /listening on (http:\/\/\S+)/.exec(out)
      if (match?.[1] !== undefined) resolve({ url: match[1], child })
    })
    child.stderr?.on('data', (chunk: Buffer) => (errText += chunk.toString()))
    child.on('exit', (code) => reject(new Error(`cutover gym ${env} exited ${code}: ${errText}`)))
  })
}

describe('real HTTP on a loopback port', () => {
  it('[http] a cookie jar plays a seeded Blackjack game, a counter session to reward 1 and a Workplace task to reward 1', async () => {
    const { dir, cleanup } = tempDataDir()
    dirs.push(cleanup)
    const { server, url } = await startServer({
      port: 0,
      host: '127.0.0.1',
      serveWeb: false,
      deps: testDeps(dir),
    })
    servers.push(server)
    const http = client(url)

    const reset = await http.post('/gym/blackjack/reset', { responses_create_params: RCP, seed: 0 })
    expect(reset.body.observation).toBe(
      'Your hand: [8, A] = 19\nDealer shows: 8\nRespond with <action>hit</action> or <action>stand</action>.',
    )
    expect(http.jar.get('cutover_blackjack_session')?.path).toBe('/gym/blackjack')
    const stand = await http.post('/gym/blackjack/step', {
      responses_create_params: RCP,
      response: say('<action>stand</action>'),
    })
    expect(stand.body).toMatchObject({
      reward: 1,
      terminated: true,
      info: { result: 'win', dealer: '[8, 2, 6, 10]' },
    })

    await http.post('/gym/counter/seed_session', { initial_count: 3 })
    await http.post('/gym/counter/increment_counter', { count: 1 })
    await http.post('/gym/counter/increment_counter', { count: 2 })
    const counterVerify = await http.post('/gym/counter/verify', {
      responses_create_params: RCP,
      response: say('6'),
      expected_count: 6,
    })
    expect(counterVerify.body.reward).toBe(1)
    // One jar holds a session per environment, each cookie scoped to its own mount.
    expect(http.jar.get('cutover_counter_session')?.path).toBe('/gym/counter')

    const task = JSON.parse(loadNodeWorkplaceData().examplesJsonl.split('\n')[0] ?? '{}') as {
      ground_truth: { name: string; arguments: string }[]
    }
    expect((await http.post('/gym/workplace/seed_session', task)).body).toEqual({})
    for (const call of task.ground_truth) {
      const r = await http.post(`/gym/workplace/${call.name}`, JSON.parse(call.arguments))
      expect(r.status).toBe(200)
    }
    const output = task.ground_truth.map((c, i) => ({
      type: 'function_call',
      call_id: `call_${i}`,
      name: c.name,
      arguments: c.arguments,
    }))
    expect(
      (await http.post('/gym/workplace/verify', { ...task, response: responseOf(output) })).body
        .reward,
    ).toBe(1)
  })

  it('[http] two cutover gym processes: commit in one, restore N+1 in a --restore-expected replacement, continue exactly; attempt N is stale', async () => {
    const { dir, cleanup } = tempDataDir()
    dirs.push(cleanup)
    const token = 'proc-token-91c2'
    const auth = { authorization: `Bearer ${token}` }
    const op = (extra: Record<string, unknown> = {}) => ({
      schema_version: 1,
      checkpoint_id: 'ckpt-1',
      deadline_ts: Date.now() / 1000 + 60,
      ...extra,
    })
    const ident = (attempt: number) => ({
      'x-nemo-gym-rollout-id': 'r3',
      'x-nemo-gym-attempt-index': String(attempt),
    })

    // Startup is mostly tsx compiling: start all four processes at once.
    const [first, replacement, c1, c2] = await Promise.all([
      spawnGym('blackjack', dir, token),
      spawnGym('blackjack', dir, token, ['--restore-expected']),
      spawnGym('counter', dir, token),
      spawnGym('counter', dir, token, ['--restore-expected']),
    ])

    // The uninterrupted reference: the same hand played straight through, in this process.
    const { server, url } = await startServer({
      port: 0,
      host: '127.0.0.1',
      serveWeb: false,
      deps: testDeps(dir),
    })
    servers.push(server)
    const straight = client(`${url}/gym/blackjack`)
    await straight.post('/reset', { responses_create_params: RCP, seed: 42 }, ident(0))
    const straightHit = await straight.post(
      '/step',
      { responses_create_params: RCP, response: say('<action>hit</action>') },
      ident(0),
    )
    const straightEnd = await straight.post(
      '/step',
      { responses_create_params: RCP, response: say('<action>stand</action>') },
      ident(0),
    )

    const a = client(first.url)
    await a.post('/ng-rollout/r3/reset', { responses_create_params: RCP, seed: 42 }, ident(0))
    expect(
      (
        await a.post(
          '/step',
          { responses_create_params: RCP, response: say('<action>hit</action>') },
          ident(0),
        )
      ).body,
    ).toEqual(straightHit.body)
    expect(
      (await a.post('/ng-control/v1/resources-checkpoint/prepare', op(), auth)).body,
    ).toMatchObject({ sessions: 1, state: 'prepared' })
    expect(
      (
        await a.post(
          '/ng-control/v1/resources-checkpoint/commit',
          op({ checkpoint_dir: join(dir, 'ckpt-1') }),
          auth,
        )
      ).body,
    ).toMatchObject({ sessions: 1 })

    const b = client(replacement.url)
    expect(await b.post('/ng-control/v1/resources-checkpoint/resume', op(), auth)).toMatchObject({
      status: 409,
      body: { error: { code: 'invalid_phase' } },
    })
    expect(
      await b.post(
        '/ng-control/v1/resources-checkpoint/restore',
        op({ checkpoint_dir: join(dir, 'ckpt-1') }),
        { authorization: 'Bearer wrong' },
      ),
    ).toMatchObject({ status: 401 })
    expect(
      (
        await b.post(
          '/ng-control/v1/resources-checkpoint/restore',
          op({ checkpoint_dir: join(dir, 'ckpt-1') }),
          auth,
        )
      ).body,
    ).toMatchObject({ sessions: 1, activated: ['r3.a1'] })
    expect((await b.post('/ng-control/v1/resources-checkpoint/resume', op(), auth)).body).toEqual({
      state: 'accepting',
    })
    expect(
      await b.post(
        '/step',
        { responses_create_params: RCP, response: say('<action>stand</action>') },
        ident(0),
      ),
    ).toMatchObject({ status: 409, body: { error: { code: 'stale_attempt' } } })
    const continued = await b.post(
      '/ng-rollout/r3-a1/step',
      { responses_create_params: RCP, response: say('<action>stand</action>') },
      ident(1),
    )
    expect(continued.body).toEqual(straightEnd.body)

    // The counter over two processes as well: 3 + 1 before the cut, + 2 after it.
    const p = client(c1.url)
    const q = client(c2.url)
    const cop = (extra: Record<string, unknown> = {}) => op({ checkpoint_id: 'ckpt-2', ...extra })
    await p.post('/seed_session', { initial_count: 3 }, ident(0))
    await p.post('/increment_counter', { count: 1 }, ident(0))
    await p.post('/ng-control/v1/resources-checkpoint/prepare', cop(), auth)
    await p.post(
      '/ng-control/v1/resources-checkpoint/commit',
      cop({ checkpoint_dir: join(dir, 'ckpt-2') }),
      auth,
    )
    expect(
      (
        await q.post(
          '/ng-control/v1/resources-checkpoint/restore',
          cop({ checkpoint_dir: join(dir, 'ckpt-2') }),
          auth,
        )
      ).status,
    ).toBe(200)
    expect((await q.post('/ng-control/v1/resources-checkpoint/resume', cop(), auth)).status).toBe(
      200,
    )
    expect(await q.post('/increment_counter', { count: 2 }, ident(0))).toMatchObject({
      status: 409,
      body: { error: { code: 'stale_attempt' } },
    })
    const inc = await q.post('/increment_counter', { count: 2 }, ident(1))
    expect(inc.headers.get('x-nemo-gym-resource-state-revision')).toBe('2')
    expect(
      (
        await q.post(
          '/verify',
          { responses_create_params: RCP, response: say('6'), expected_count: 6 },
          ident(1),
        )
      ).body.reward,
    ).toBe(1)
  })
})

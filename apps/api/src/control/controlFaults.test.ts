// What a fault campaign found on the control routes (issue #29): stale ids answered with cached
// bytes, a replayed commit into another directory, and errors outside the envelope.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { AgentParticipant } from '@cutover/core'
import { NodeCheckpointDirectory, nodeDigest } from '@cutover/core/adapters'
import { createAgentApp } from '../agent/createAgentApp.ts'
import { apiHarness, tempDataDir } from '../testing/apiHarness.ts'

const TOKEN = 'test-token-29'
const auth = { authorization: `Bearer ${TOKEN}` }
const op = (checkpoint_id: string, extra: Record<string, unknown> = {}) => ({
  schema_version: 1,
  checkpoint_id,
  deadline_ts: Date.now() / 1000 + 60,
  ...extra,
})

function resources(dataDir: string) {
  const api = apiHarness(dataDir, { controlToken: TOKEN })
  const post = async (path: string, body: unknown, headers: Record<string, string> = auth) => {
    const response = await api.app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })
    const text = await response.text()
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked structurally
    return { status: response.status, body: JSON.parse(text) as any, text }
  }
  const control = (route: string, body: unknown) =>
    post(`/gym/counter/ng-control/v1/resources-checkpoint/${route}`, body)
  const seed = (rollout: string) =>
    post(
      '/gym/counter/seed_session',
      { initial_count: 1 },
      {
        'x-nemo-gym-rollout-id': rollout,
        'x-nemo-gym-attempt-index': '0',
      },
    )
  return { control, seed, post }
}

describe('control routes under a fault campaign', () => {
  const { dir, cleanup } = tempDataDir()
  afterAll(cleanup)

  it('[fence.stale-before-replay] while ck-c is prepared, prepare, commit and resume of the finished ck-a are 409 stale_checkpoint, and nothing is written', async () => {
    const a = resources(dir)
    await a.seed('r0')
    const ckA = join(dir, 'stale', 'ck-a')
    expect((await a.control('prepare', op('ck-a'))).status).toBe(200)
    expect((await a.control('commit', op('ck-a', { checkpoint_dir: ckA }))).status).toBe(200)
    expect((await a.control('resume', op('ck-a'))).status).toBe(200)
    expect((await a.control('prepare', op('ck-c'))).status).toBe(200)
    const elsewhere = join(dir, 'stale', 'ck-a-again')
    for (const [route, body] of [
      ['prepare', op('ck-a')],
      ['commit', op('ck-a', { checkpoint_dir: ckA })],
      ['commit', op('ck-a', { checkpoint_dir: elsewhere })],
      ['resume', op('ck-a')],
      ['restore', op('ck-a', { checkpoint_dir: ckA })],
    ] as const) {
      const r = await a.control(route, body)
      expect([route, r.status, r.body.error?.code]).toEqual([route, 409, 'stale_checkpoint'])
    }
    expect(existsSync(elsewhere)).toBe(false)
  })

  it('[fence.invalid-phase] resume of an id an idle server never prepared is 409 invalid_phase in the envelope, and the server stays idle', async () => {
    const a = resources(join(dir, 'never'))
    const r = await a.control('resume', op('ck-never'))
    expect([r.status, r.body.error?.code]).toEqual([409, 'invalid_phase'])
    expect(r.body.error.message).toMatch(/never prepared/)
    // Nothing was retired by the refusal: the id can still be prepared.
    expect((await a.control('prepare', op('ck-never'))).status).toBe(200)
  })

  it('[control.envelope-everywhere] a commit the fence refuses (the server never prepared) is 409 invalid_phase and creates no checkpoint directory', async () => {
    const a = resources(join(dir, 'unprepared'))
    const target = join(dir, 'unprepared', 'ck-early')
    const r = await a.control('commit', op('ck-early', { checkpoint_dir: target }))
    expect([r.status, r.body.error?.code]).toEqual([409, 'invalid_phase'])
    expect(existsSync(target)).toBe(false)
  })

  it('[fence.replay-same-request] a commit retried with a new deadline replays; with another checkpoint_dir it is 409 checkpoint_conflict and that directory is never created', async () => {
    const a = resources(dir)
    await a.seed('r1')
    expect((await a.control('prepare', op('ck-r'))).status).toBe(200)
    const first = join(dir, 'replay', 'ck-r')
    const committed = await a.control('commit', op('ck-r', { checkpoint_dir: first }))
    expect(committed.status).toBe(200)
    const retried = await a.control(
      'commit',
      op('ck-r', { checkpoint_dir: first, deadline_ts: Date.now() / 1000 + 600 }),
    )
    expect(retried).toEqual(committed)
    const other = join(dir, 'replay', 'other')
    const moved = await a.control('commit', op('ck-r', { checkpoint_dir: other }))
    expect([moved.status, moved.body.error?.code]).toEqual([409, 'checkpoint_conflict'])
    expect(existsSync(other)).toBe(false)
  })

  it('[control.envelope-everywhere] a checkpoint_dir that is a file or lies under one is 400 checkpoint_dir_invalid, naming it relative to the data directory', async () => {
    const a = resources(dir)
    await a.seed('r2')
    expect((await a.control('prepare', op('ck-f'))).status).toBe(200)
    mkdirSync(join(dir, 'files'), { recursive: true })
    writeFileSync(join(dir, 'files', 'plain'), 'not a directory')
    for (const target of [join(dir, 'files', 'plain'), join(dir, 'files', 'plain', 'ck-f')]) {
      const r = await a.control('commit', op('ck-f', { checkpoint_dir: target }))
      expect([r.status, r.body.error?.code]).toEqual([400, 'checkpoint_dir_invalid'])
      expect(r.body.error.message).toContain('files/plain')
      expect(r.text).not.toContain(dir)
    }
    // The fence is still prepared: a good directory commits.
    const good = await a.control('commit', op('ck-f', { checkpoint_dir: join(dir, 'files', 'ok') }))
    expect(good.status).toBe(200)
  })

  it('[control.envelope-everywhere] a 5 MB body to a control route is 413 payload_too_large in the envelope, never the Gym routes’ detail', async () => {
    const a = resources(dir)
    const huge = JSON.stringify({ ...op('ck-big'), pad: 'x'.repeat(5 * 1024 * 1024) })
    const r = await a.control('prepare', huge)
    expect(r.status).toBe(413)
    expect(r.body.error.code).toBe('payload_too_large')
    expect(r.body.detail).toBeUndefined()
  })

  it("[control.envelope-everywhere] the agent's POST /run holds its body to the API limit: 413 payload_too_large in the envelope", async () => {
    const app = createAgentApp({
      agent: new AgentParticipant(nodeDigest, 'agent'),
      upstreams: {
        model: 'http://127.0.0.1:9',
        resources: {
          blackjack: 'http://127.0.0.1:9',
          counter: 'http://127.0.0.1:9',
          workplace: 'http://127.0.0.1:9',
        },
      },
      controlToken: TOKEN,
      dataDir: dir,
      clock: { now: () => Date.now() },
      openDirectory: (path, create) => new NodeCheckpointDirectory(path, { create }),
      pid: process.pid,
      note: () => undefined,
    })
    for (const path of ['/run', '/ng-control/v1/agent-checkpoint/prepare']) {
      const response = await app.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth },
        body: JSON.stringify({ rollout_id: 'r0', pad: 'x'.repeat(5 * 1024 * 1024) }),
      })
      expect(response.status, path).toBe(413)
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked structurally
      const body = (await response.json()) as any
      expect(body.error.code, path).toBe('payload_too_large')
    }
  })
})

import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DirectoryRunView } from '@cutover/core/contracts'
import { apiHarness, tempDataDir } from '../testing/apiHarness.ts'
import { INSPECT_ROOTS_FILE } from '../directories/inspectRoots.ts'

const data = tempDataDir()
const outside = tempDataDir()
let api: ReturnType<typeof apiHarness>
let checkpoint: string

const post = (path: unknown) =>
  api.json('/api/directories', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path }),
  })

/** Every file below `dir` with its size and mtime: to show nothing was written. */
function fingerprint(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((e) => join(e.parentPath, e.name))
    .sort()
    .map((p) => `${p} ${statSync(p).size} ${statSync(p).mtimeMs}`)
}

beforeAll(async () => {
  api = apiHarness(data.dir)
  const run = await api.createRun({ scenario: 'happy-path', seed: 3, rollouts: 9 })
  const done = await api.waitComplete(run.id)
  // the runs API names checkpoints relative to the data directory
  checkpoint = join(data.dir, done.checkpoints[0] as string)
  // a copy outside the data directory, for the confinement tests
  cpSync(checkpoint, join(outside.dir, 'ck'), { recursive: true })
})

afterAll(() => {
  data.cleanup()
  outside.cleanup()
})

describe('POST /api/directories', () => {
  it('[inspect] a relative path reads against the data directory, as the runs API names checkpoints', async () => {
    const r = await post(checkpoint.slice(data.dir.length + 1))
    expect(r.status).toBe(201)
    expect((r.body as DirectoryRunView).path).toBe(checkpoint)
  })

  it('[inspect] opens a run checkpoint directory read-only as a run of kind "directory"', async () => {
    const before = fingerprint(checkpoint)
    const r = await post(checkpoint)
    expect(r.status).toBe(201)
    const view = r.body as DirectoryRunView
    expect(view).toMatchObject({
      kind: 'directory',
      path: checkpoint,
      status: 'complete',
      events: 0,
      valid: true,
      problems: [],
    })
    expect(view.id).toMatch(/^dir[0-9a-f]{16}$/)
    expect(new Set(view.sessions.map((s) => s.row.environment))).toEqual(
      new Set(['blackjack', 'counter', 'workplace']),
    )
    expect(view.timeline.at(-1)?.path).toBe('checkpoint.json')
    expect(fingerprint(checkpoint)).toEqual(before)
    // the same directory keeps its id; it opens as a run and lists
    expect((await post(checkpoint)).body.id).toBe(view.id)
    expect((await api.json(`/api/runs/${view.id}`)).body).toMatchObject({
      id: view.id,
      kind: 'directory',
    })
    expect((await api.json('/api/directories')).body.directories).toEqual([
      { id: view.id, path: checkpoint, created_at: view.created_at },
    ])
    // simulated runs still answer at /runs/:id
    expect((await api.json('/api/runs')).body.runs.length).toBe(1)
    const wp = view.sessions.find((s) => s.row.environment === 'workplace')
    const tables = await api.json(`/api/directories/${view.id}/sessions/${wp?.row.key}/tables`)
    expect(tables.status).toBe(200)
    expect(tables.body.tables.map((t: { name: string }) => t.name)).toContain('emails')
    // files: only what the directory lists, read as they are on disk
    const marker = await api.app.request(`/api/directories/${view.id}/files/checkpoint.json`)
    expect(marker.status).toBe(200)
    expect(await marker.text()).toBe(readFileSync(join(checkpoint, 'checkpoint.json'), 'utf8'))
    for (const bad of ['..%2F..%2Frun.json', 'nope.json', 'agent', '%E0%A4%A']) {
      const r = await api.json(`/api/directories/${view.id}/files/${bad}`)
      expect([bad, r.status < 500, typeof r.body.error.code]).toEqual([bad, true, 'string'])
    }
    const bj = view.sessions.find((s) => s.row.environment === 'blackjack')
    expect(
      (await api.json(`/api/directories/${view.id}/sessions/${bj?.row.key}/tables`)).body.error
        .code,
    ).toBe('session_not_found')
  })

  it('[inspect] a directory with one flipped byte: the problem on exactly that file', async () => {
    const copy = join(data.dir, 'flipped')
    cpSync(checkpoint, copy, { recursive: true })
    const victim = readdirSync(join(copy, 'resources', 'workplace')).find(
      (n) => n !== 'manifest.json',
    ) as string
    const file = join(copy, 'resources', 'workplace', victim)
    const bytes = readFileSync(file)
    bytes[10] = (bytes[10] ?? 0) ^ 1
    writeFileSync(file, bytes)
    const r = await post(copy)
    expect(r.status).toBe(201)
    expect(r.body.valid).toBe(false)
    expect(r.body.problems).toContainEqual(
      expect.objectContaining({ code: 'digest_mismatch', path: `resources/workplace/${victim}` }),
    )
    expect(
      r.body.files.find((f: { path: string }) => f.path === `resources/workplace/${victim}`)
        .problems,
    ).toContain('digest_mismatch')
  })

  it('[inspect] refuses bad input with the envelope and changes nothing', async () => {
    const listed = (await api.json('/api/directories')).body.directories
    const records = existsSync(join(data.dir, 'directories'))
      ? readdirSync(join(data.dir, 'directories'))
      : []
    const cases: [unknown, number, string][] = [
      [join(data.dir, 'runs'), 400, 'not_a_checkpoint_directory'],
      [join(data.dir, 'no-such-dir'), 400, 'not_a_checkpoint_directory'],
      [join(checkpoint, 'checkpoint.json'), 400, 'not_a_checkpoint_directory'],
      [join(outside.dir, 'ck'), 403, 'path_not_allowed'],
      [`${data.dir}/../../${outside.dir}/ck`, 403, 'path_not_allowed'],
      ['/etc', 403, 'path_not_allowed'],
      ['', 400, 'invalid_request'],
      [42, 400, 'invalid_request'],
    ]
    for (const [path, status, code] of cases) {
      const r = await post(path)
      expect([path, r.status, r.body.error?.code]).toEqual([path, status, code])
      expect(typeof r.body.error.message).toBe('string')
    }
    // a symlink inside the data directory that points outside it
    symlinkSync(join(outside.dir, 'ck'), join(data.dir, 'link'))
    expect((await post(join(data.dir, 'link'))).body.error.code).toBe('path_not_allowed')
    const malformed = await api.json('/api/directories', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{nope',
    })
    expect(malformed.body.error.code).toBe('malformed_json')
    const extra = await api.json('/api/directories', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: checkpoint, x: 1 }),
    })
    expect(extra.body.error.code).toBe('invalid_request')
    expect((await api.json('/api/directories')).body.directories).toEqual(listed)
    expect(
      existsSync(join(data.dir, 'directories')) ? readdirSync(join(data.dir, 'directories')) : [],
    ).toEqual(records)
  })

  it('[inspect] unknown directory runs are 404 run_not_found; a malformed id is 400', async () => {
    expect((await api.json('/api/runs/dir0123456789abcdef')).body.error.code).toBe('run_not_found')
    expect((await api.json('/api/directories/dir0123456789abcdef')).body.error.code).toBe(
      'run_not_found',
    )
    expect((await api.json('/api/directories/NOPE!')).status).toBe(400)
  })

  it('[inspect] a directory named to cutover inspect (inspect-roots.txt) may be opened', async () => {
    mkdirSync(data.dir, { recursive: true })
    writeFileSync(join(data.dir, INSPECT_ROOTS_FILE), `${join(outside.dir, 'ck')}\n`)
    const r = await post(join(outside.dir, 'ck'))
    expect(r.status).toBe(201)
    expect(r.body.valid).toBe(true)
  })
})

describe('POST /api/directories, a real-stack checkpoint', () => {
  it('[wire.nemo-rl-checkpoint] [inspect] a checkpoint the real NeMo-RL controller published opens valid, publisher nemo-rl, its sessions and boundaries shown', async () => {
    const real = join(data.dir, 'ck-real-1')
    cpSync(
      fileURLToPath(
        new URL('../../../../vendor/real_stack/d1-adapted-cycle/data/ck-real-1', import.meta.url),
      ),
      real,
      { recursive: true },
    )
    const r = await post(real)
    expect(r.status).toBe(201)
    const view = r.body as DirectoryRunView
    expect(view).toMatchObject({ checkpoint_id: 'ck-real-1', valid: true, publisher: 'nemo-rl' })
    expect(view.problems).toEqual([])
    expect(view.sessions.map((x) => x.row.key).sort()).toEqual(['r1.a0', 'r2.a0', 'r4.a0', 'r5.a0'])
    expect(view.boundaries).toHaveLength(4)
  })
})

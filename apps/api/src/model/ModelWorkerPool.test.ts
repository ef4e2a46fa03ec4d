import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { ParticipantProcess } from '../fleet/spawnParticipant.ts'
import { spawnParticipant } from '../fleet/spawnParticipant.ts'
import { modelWorkers, startModelWorker, waitForWorker } from '../fleet/twoWorkerAdmission.ts'
import { processAlive } from '../participants/processAlive.ts'

const TOKEN = 'test-token-workers'
const dir = mkdtempSync(join(tmpdir(), 'cutover-workers-'))
const socket = join(dir, 'c.sock')
const started: ParticipantProcess[] = []
const seen = new Set<number>()

afterAll(async () => {
  await Promise.all(started.map((p) => p.stop()))
  // No worker outlives its coordinator (its socket closes; CUTOVER_PARENT_STDIN).
  for (let waited = 0; waited < 5000 && [...seen].some(processAlive); waited += 50)
    await new Promise((r) => setTimeout(r, 50))
  for (const pid of seen) expect(processAlive(pid), `worker pid ${pid} is gone`).toBe(false)
  rmSync(dir, { recursive: true, force: true })
})

const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }
const body = (cid: string) =>
  JSON.stringify({ schema_version: 1, checkpoint_id: cid, deadline_ts: Date.now() / 1000 + 30 })
async function control(
  url: string,
  path: string,
  cid: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(
    `${url}/ng-control/v1/${path}`,
    path.includes('status')
      ? { headers: auth }
      : { method: 'POST', headers: auth, body: body(cid) },
  )
  return { status: r.status, body: (await r.json()) as Record<string, unknown> }
}
const code = (r: { body: Record<string, unknown> }): unknown =>
  (r.body['error'] as { code?: unknown } | undefined)?.code

describe('cutover model --workers 2: worker OS processes behind the admission coordinator', () => {
  it('[coordinator.missing-workers] [coordinator.registration-rejected] [coordinator.paused-needs-all-acks] [fleet-process] a worker killed before the close is missing_workers, never zero in flight; a replacement joins only while accepting', async () => {
    const model = await spawnParticipant(
      ['model', '--workers', '2', '--coordinator-socket', socket],
      { CUTOVER_CONTROL_TOKEN: TOKEN, CUTOVER_DATA_DIR: dir },
    )
    started.push(model)
    const workers = await modelWorkers(model.url)
    expect(workers.map((w) => [w.worker, w.connected])).toEqual([
      [0, true],
      [1, true],
    ])
    for (const w of workers) {
      expect(w.pid !== null && processAlive(w.pid)).toBe(true)
      seen.add(w.pid as number)
    }
    const caps = (await (
      await fetch(`${model.url}/ng-control/v1/capabilities`, { headers: auth })
    ).json()) as { multi_process: unknown }
    expect(caps.multi_process).toMatchObject({ mode: 'coordinator', num_workers: 2 })

    // Killed before the close: the close refuses the membership instead of counting it as zero.
    process.kill(workers[1]?.pid as number, 'SIGKILL')
    await waitForWorker(model.url, 1, false)
    const refused = await control(model.url, 'model-admission/pause', 'ck-1')
    expect([refused.status, code(refused)]).toEqual([409, 'missing_workers'])
    expect(
      code(await control(model.url, 'model-admission/status?checkpoint_id=ck-1', 'ck-1')),
    ).toBe('invalid_phase')

    // While accepting, a replacement worker joins; the close then pauses only once both
    // acknowledged.
    const joined = startModelWorker(1, socket)
    seen.add(joined.pid)
    expect((await waitForWorker(model.url, 1, true))?.pid).toBe(joined.pid)
    const pause = await control(model.url, 'model-admission/pause', 'ck-2')
    expect(pause.status).toBe(200)
    const status = await control(
      model.url,
      'model-admission/status?checkpoint_id=ck-2&wait_state=paused&timeout_s=5',
      'ck-2',
    )
    expect(status.body).toMatchObject({
      state: 'paused',
      inflight_total: 0,
      workers: { acknowledged: 2, expected: 2 },
      per_worker: { '0': { acknowledged: true }, '1': { acknowledged: true } },
    })

    // A worker that leaves while admission is closed cannot be replaced until it reopens.
    process.kill(joined.pid, 'SIGKILL')
    await waitForWorker(model.url, 1, false)
    const early = startModelWorker(1, socket)
    seen.add(early.pid)
    expect(await early.exited).toBe(1)
    expect(early.stderr()).toMatch(/worker_registration_rejected/)
    expect((await control(model.url, 'model-admission/resume', 'ck-2')).status).toBe(200)
    const late = startModelWorker(1, socket)
    seen.add(late.pid)
    expect((await waitForWorker(model.url, 1, true))?.pid).toBe(late.pid)
  })
})
